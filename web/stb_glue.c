/* The stb implementations for the browser build (web/web_deps.cmake). On Debian, libstb.a
 * holds them compiled for the host; Emscripten needs them compiled to WebAssembly, from the
 * same headers: PNG reading and writing (app/io) and the font rasteriser and rectangle packer
 * that Dear ImGui's font atlas calls. */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_RECT_PACK_IMPLEMENTATION
#define STB_TRUETYPE_IMPLEMENTATION
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#include <stb/stb_rect_pack.h>
#include <stb/stb_truetype.h>
