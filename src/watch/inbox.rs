//! What the watch thread receives: file-system events from the native watcher, and the
//! handle's pause, resume and stop.

/// A message to the watch thread.
pub(crate) enum Msg {
    /// From the native watcher.
    Fs(notify::Result<notify::Event>),
    Pause,
    Resume,
    Stop,
}
