#include "host/quit_signal.hpp"

#include <SDL.h>

#include <csignal>
#include <initializer_list>

namespace pathlab::sandbox {
namespace {

volatile std::sig_atomic_t g_quit_signal = 0;

extern "C" void record_quit_signal(int sig) { g_quit_signal = sig; }

}  // namespace

void install_quit_signal_handlers() {
  SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
  struct sigaction sa{};
  sa.sa_handler = record_quit_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking wait returns early (the pump waits 250 ms at most anyway)
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &sa, nullptr);
}

int quit_signal() { return g_quit_signal; }

const char* quit_signal_name(int sig) {
  switch (sig) {
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

}  // namespace pathlab::sandbox
