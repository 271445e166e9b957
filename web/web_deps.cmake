# The browser build's dependencies (scripts/web.sh configures the repository with emcmake and
# -DPATHLAB_WEB_SOURCES=<folder>): Emscripten's sysroot holds none of Debian's libraries, so
# SDL 2.26 and Dear ImGui 1.86 are compiled here from Debian's source packages (`apt-get
# source libsdl2 imgui`, unpacked under build-web/), and the header-only libraries (glm,
# nlohmann_json, stb) are used from Debian's headers through a folder of links that holds them
# alone (adding /usr/include itself would put glibc's headers before Emscripten's libc).
# Included from third_party/CMakeLists.txt instead of its native find_package() calls.

set(PATHLAB_WEB_SOURCES "" CACHE PATH "Folder with Debian's libsdl2-* and imgui-* source trees")
file(GLOB PATHLAB_SDL_DIR LIST_DIRECTORIES true "${PATHLAB_WEB_SOURCES}/libsdl2-2*")
file(GLOB PATHLAB_IMGUI_DIR LIST_DIRECTORIES true "${PATHLAB_WEB_SOURCES}/imgui-1*")
if(NOT IS_DIRECTORY "${PATHLAB_SDL_DIR}" OR NOT IS_DIRECTORY "${PATHLAB_IMGUI_DIR}")
  message(FATAL_ERROR "PATHLAB_WEB_SOURCES='${PATHLAB_WEB_SOURCES}' holds no libsdl2-2* and imgui-1* source trees: run scripts/web.sh")
endif()

# Header-only libraries from Debian, each linked alone into one include folder.
set(PATHLAB_WEB_INCLUDE ${CMAKE_BINARY_DIR}/web-include)
foreach(dir glm nlohmann stb)
  if(NOT IS_DIRECTORY /usr/include/${dir})
    message(FATAL_ERROR "/usr/include/${dir} is missing: run scripts/install-deps.sh (libglm-dev, nlohmann-json3-dev, libstb-dev)")
  endif()
  file(MAKE_DIRECTORY ${PATHLAB_WEB_INCLUDE})
  file(CREATE_LINK /usr/include/${dir} ${PATHLAB_WEB_INCLUDE}/${dir} SYMBOLIC)
endforeach()
add_library(glm::glm INTERFACE IMPORTED GLOBAL)
target_include_directories(glm::glm SYSTEM INTERFACE ${PATHLAB_WEB_INCLUDE})
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED GLOBAL)
target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE ${PATHLAB_WEB_INCLUDE})

# stb: Debian's libstb.a is native code, so its implementations are compiled here (web/stb_glue.c).
add_library(pathlab_stb STATIC ${PROJECT_SOURCE_DIR}/web/stb_glue.c)
target_include_directories(pathlab_stb SYSTEM PUBLIC ${PATHLAB_WEB_INCLUDE}/stb ${PATHLAB_WEB_INCLUDE})
set(STB_LIBRARY "")

# SDL 2.26 with its own Emscripten configuration (include/SDL_config_emscripten.h, chosen by
# SDL_config.h), compiled from the source list SDL's CMake build uses for Emscripten. SDL's
# configure step runs some 150 compiler checks (about 10 minutes of emcc start-ups on a busy
# 2-core machine); SDL_config_emscripten.h already says what they would find (dlopen for
# loadso, generic threads), so they are skipped.
set(PATHLAB_SDL_SOURCES
  SDL.c SDL_assert.c SDL_dataqueue.c SDL_error.c SDL_guid.c SDL_hints.c SDL_list.c SDL_log.c SDL_utils.c
  atomic/SDL_atomic.c atomic/SDL_spinlock.c
  audio/SDL_audio.c audio/SDL_audiocvt.c audio/SDL_audiodev.c audio/SDL_audiotypecvt.c audio/SDL_mixer.c
  audio/SDL_wave.c audio/disk/SDL_diskaudio.c audio/dummy/SDL_dummyaudio.c audio/emscripten/SDL_emscriptenaudio.c
  cpuinfo/SDL_cpuinfo.c dynapi/SDL_dynapi.c
  events/SDL_clipboardevents.c events/SDL_displayevents.c events/SDL_dropevents.c events/SDL_events.c
  events/SDL_gesture.c events/SDL_keyboard.c events/SDL_keysym_to_scancode.c events/SDL_mouse.c events/SDL_quit.c
  events/SDL_scancode_tables.c events/SDL_touch.c events/SDL_windowevents.c events/imKStoUCS.c
  file/SDL_rwops.c filesystem/emscripten/SDL_sysfilesystem.c
  haptic/SDL_haptic.c haptic/dummy/SDL_syshaptic.c hidapi/SDL_hidapi.c
  joystick/SDL_gamecontroller.c joystick/SDL_joystick.c joystick/controller_type.c
  joystick/emscripten/SDL_sysjoystick.c joystick/virtual/SDL_virtualjoystick.c
  loadso/dlopen/SDL_sysloadso.c locale/SDL_locale.c locale/emscripten/SDL_syslocale.c main/dummy/SDL_dummy_main.c
  misc/SDL_url.c misc/emscripten/SDL_sysurl.c power/SDL_power.c power/emscripten/SDL_syspower.c
  render/SDL_render.c render/SDL_yuv_sw.c render/opengles2/SDL_render_gles2.c render/opengles2/SDL_shaders_gles2.c
  render/software/SDL_blendfillrect.c render/software/SDL_blendline.c render/software/SDL_blendpoint.c
  render/software/SDL_drawline.c render/software/SDL_drawpoint.c render/software/SDL_render_sw.c
  render/software/SDL_rotate.c render/software/SDL_triangle.c
  sensor/SDL_sensor.c sensor/dummy/SDL_dummysensor.c
  stdlib/SDL_crc16.c stdlib/SDL_crc32.c stdlib/SDL_getenv.c stdlib/SDL_iconv.c stdlib/SDL_malloc.c
  stdlib/SDL_qsort.c stdlib/SDL_stdlib.c stdlib/SDL_string.c stdlib/SDL_strtokr.c
  thread/SDL_thread.c thread/generic/SDL_syscond.c thread/generic/SDL_sysmutex.c thread/generic/SDL_syssem.c
  thread/generic/SDL_systhread.c thread/generic/SDL_systls.c timer/SDL_timer.c timer/unix/SDL_systimer.c
  video/SDL_RLEaccel.c video/SDL_blit.c video/SDL_blit_0.c video/SDL_blit_1.c video/SDL_blit_A.c video/SDL_blit_N.c
  video/SDL_blit_auto.c video/SDL_blit_copy.c video/SDL_blit_slow.c video/SDL_bmp.c video/SDL_clipboard.c
  video/SDL_egl.c video/SDL_fillrect.c video/SDL_pixels.c video/SDL_rect.c video/SDL_shape.c video/SDL_stretch.c
  video/SDL_surface.c video/SDL_video.c video/SDL_vulkan_utils.c video/SDL_yuv.c
  video/dummy/SDL_nullevents.c video/dummy/SDL_nullframebuffer.c video/dummy/SDL_nullvideo.c
  video/emscripten/SDL_emscriptenevents.c video/emscripten/SDL_emscriptenframebuffer.c
  video/emscripten/SDL_emscriptenmouse.c video/emscripten/SDL_emscriptenopengles.c video/emscripten/SDL_emscriptenvideo.c
  video/yuv2rgb/yuv_rgb.c)
list(TRANSFORM PATHLAB_SDL_SOURCES PREPEND ${PATHLAB_SDL_DIR}/src/)
enable_language(C)
add_library(pathlab_sdl2 STATIC ${PATHLAB_SDL_SOURCES})
# Not SYSTEM: emcc adds its own SDL 1 headers (sysroot include/SDL) as a system folder, and
# system folders are searched in order, so only an -I folder puts SDL 2's SDL.h first.
target_include_directories(pathlab_sdl2 PUBLIC ${PATHLAB_SDL_DIR}/include)
target_include_directories(pathlab_sdl2 PRIVATE ${PATHLAB_SDL_DIR}/src ${PATHLAB_SDL_DIR}/src/video/khronos)
target_compile_options(pathlab_sdl2 PRIVATE -w -fno-strict-aliasing)
add_library(SDL2::SDL2 ALIAS pathlab_sdl2)

# Dear ImGui 1.86 as Debian builds it (its Makefile patch): stb's font rasteriser and rectangle
# packer from Debian's stb headers, implemented once in web/stb_glue.c. Plus the two backends
# the desktop sandbox uses: SDL2 events and the SDL_Renderer.
set(IMGUI_INCLUDE_DIR ${PATHLAB_IMGUI_DIR})
add_library(pathlab_imgui_backend STATIC
  ${PATHLAB_IMGUI_DIR}/imgui.cpp ${PATHLAB_IMGUI_DIR}/imgui_draw.cpp ${PATHLAB_IMGUI_DIR}/imgui_tables.cpp
  ${PATHLAB_IMGUI_DIR}/imgui_widgets.cpp
  ${PATHLAB_IMGUI_DIR}/backends/imgui_impl_sdl.cpp ${PATHLAB_IMGUI_DIR}/backends/imgui_impl_sdlrenderer.cpp)
target_compile_definitions(pathlab_imgui_backend PUBLIC
  IMGUI_STB_RECT_PACK_FILENAME=<stb/stb_rect_pack.h> IMGUI_STB_TRUETYPE_FILENAME=<stb/stb_truetype.h>
  IMGUI_DISABLE_STB_RECT_PACK_IMPLEMENTATION IMGUI_DISABLE_STB_TRUETYPE_IMPLEMENTATION)
# The sandbox includes <imgui.h> and <backends/imgui_impl_sdl.h>, as from Debian's /usr/include/imgui.
target_include_directories(pathlab_imgui_backend SYSTEM PUBLIC ${PATHLAB_IMGUI_DIR} ${PATHLAB_IMGUI_DIR}/backends)
target_compile_options(pathlab_imgui_backend PRIVATE -w)
target_link_libraries(pathlab_imgui_backend PUBLIC pathlab_stb SDL2::SDL2)
