#pragma once
// Quitting on a signal (issue 23): SIGTERM (a logout, `kill`, a shutdown), SIGINT (Ctrl+C in
// the terminal) and SIGHUP (the terminal went away) end the app without asking: nobody is
// there to answer a dialog, and a session manager kills a process that does not go within a
// few seconds. The unsaved work goes to the autosave, which the next start offers to restore
// as it does after a crash.
//
// The handler only records which signal came (the one async-signal-safe thing to do); the
// host's event pump reads it. SDL's own SIGINT/SIGTERM handlers are switched off
// (SDL_HINT_NO_SIGNAL_HANDLERS): they turned the signal into SDL_QUIT, which cannot be told
// apart from a closed window, which must ask.

namespace pathlab::sandbox {

/// Installs the handlers for SIGTERM, SIGINT and SIGHUP. Call before SDL_Init (the hint that
/// keeps SDL's handlers away is set here too).
void install_quit_signal_handlers();
/// The signal that asked the app to quit, or 0.
int quit_signal();
/// Its name for messages ("SIGTERM").
const char* quit_signal_name(int sig);

}  // namespace pathlab::sandbox
