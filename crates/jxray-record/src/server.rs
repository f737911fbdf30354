//! The listener: checks the capture folder, binds the address, and serves each client
//! connection (HTTP/1.1, keep-alive) on its own task, until it is told to stop: then it
//! stops accepting, cuts the calls still in flight (their captures are written as far as
//! they arrived) and waits for every capture to be written, for a bounded time.

use std::fs;
use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::task::JoinSet;

use crate::budget::Budget;
use crate::client::upstream;
use crate::drain::Tracker;
use crate::proxy::{handle, State};
use crate::write::Folder;
use crate::{ProxySettings, RecordError, SharedLog};

/// How long a client may take to send a request head.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a stop waits for the captures being written.
pub const STOP_GRACE: Duration = Duration::from_secs(10);

/// What a stop left undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    /// Exchanges whose files were still not written when the grace time ran out.
    pub unwritten: usize,
}

/// A bound, ready proxy.
pub struct Recorder {
    listener: TcpListener,
    state: Arc<State>,
}

impl Recorder {
    /// Create and check the capture folder, then bind the address.
    pub async fn bind(settings: ProxySettings, log: SharedLog) -> Result<Recorder, RecordError> {
        let folder = prepare_folder(&settings.to)?;
        let listener =
            TcpListener::bind(settings.listen)
                .await
                .map_err(|source| match source.kind() {
                    std::io::ErrorKind::AddrInUse => RecordError::PortInUse {
                        addr: settings.listen,
                    },
                    _ => RecordError::Listen {
                        addr: settings.listen,
                        source,
                    },
                })?;
        let state = State {
            client: upstream(&settings.timeouts),
            routes: settings.routes,
            limits: settings.limits,
            timeouts: settings.timeouts,
            folder,
            log,
            budget: Budget::new(settings.limits.memory_bytes),
            pending: Arc::new(Tracker::default()),
            stopping: Default::default(),
            chains: settings.chains,
            watches: settings.watches,
            calls: Default::default(),
            turns: Default::default(),
        };
        Ok(Recorder {
            listener,
            state: Arc::new(state),
        })
    }

    /// The address actually bound (the port, when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// The capture folder, canonical.
    pub fn folder(&self) -> &Path {
        self.state.folder.path()
    }

    /// The bytes the exchanges' copies hold now (for tests of the memory bound).
    pub fn budget(&self) -> Arc<Budget> {
        self.state.budget.clone()
    }

    /// Serve until the task is dropped.
    pub async fn serve(self) {
        self.serve_until(std::future::pending(), STOP_GRACE).await;
    }

    /// Serve until `stop` completes; then stop accepting, cut the calls in flight (each
    /// kept as far as it arrived, marked so), and wait up to `grace` for every capture to
    /// be written.
    pub async fn serve_until(self, stop: impl Future<Output = ()>, grace: Duration) -> Stopped {
        let mut connections = JoinSet::new();
        tokio::pin!(stop);
        loop {
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                _ = &mut stop => break,
                // Finished connections are reaped as they end.
                Some(_) = connections.join_next(), if !connections.is_empty() => continue,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Out of file descriptors, say: wait a little instead of spinning.
                    self.state
                        .log
                        .line(&format!("cannot accept a connection: {error}"));
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            let state = self.state.clone();
            connections.spawn(async move {
                let service = service_fn(move |request| handle(state.clone(), request));
                // A client that goes away mid-call ends this with an error: nothing to report.
                let _ = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_READ_TIMEOUT)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
        drop(self.listener);
        self.state.stopping.store(true, Ordering::SeqCst);
        // Dropping a connection drops its response body: the capture's copy ends there
        // and is written as far as it arrived.
        connections.shutdown().await;
        let written = tokio::time::timeout(grace, self.state.pending.idle()).await;
        Stopped {
            unwritten: if written.is_ok() {
                0
            } else {
                self.state.pending.count()
            },
        }
    }
}

/// Create the folder when missing, check a file can be written in it, and open it: every
/// write is made relative to that handle.
fn prepare_folder(path: &Path) -> Result<Folder, RecordError> {
    let folder_error = |source| RecordError::Folder {
        path: path.to_path_buf(),
        source,
    };
    if let Some(what) = not_a_folder(path) {
        return Err(RecordError::NotAFolder {
            path: path.to_path_buf(),
            what,
        });
    }
    fs::create_dir_all(path).map_err(folder_error)?;
    let root = fs::canonicalize(path).map_err(folder_error)?;
    let folder = Folder::open(&root).map_err(folder_error)?;
    folder.check_writable().map_err(folder_error)?;
    Ok(folder)
}

/// What `path` is, when it exists and is not a folder (nor a symlink to one).
fn not_a_folder(path: &Path) -> Option<&'static str> {
    let kind = fs::metadata(path).ok()?.file_type();
    if kind.is_dir() {
        return None;
    }
    Some(if kind.is_file() {
        "a file"
    } else {
        special_kind(&kind).unwrap_or("something other than a folder")
    })
}

/// Unix's special files, named.
#[cfg(unix)]
fn special_kind(kind: &fs::FileType) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_char_device() {
        Some("a character device")
    } else if kind.is_block_device() {
        Some("a block device")
    } else if kind.is_fifo() {
        Some("a FIFO")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

/// Windows has no special files on the file system's paths (devices and named pipes
/// live in their own namespaces).
#[cfg(not(unix))]
fn special_kind(_kind: &fs::FileType) -> Option<&'static str> {
    None
}

/// A recorder serving on its own runtime threads, for a caller that is not async (the
/// `jxray record` command; with `--tui`, the workbench runs on the calling thread).
pub struct Running {
    /// Dropped or sent: the serving thread stops.
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Stopped>>,
    addr: SocketAddr,
    folder: PathBuf,
}

impl Running {
    /// Bind and start serving on a thread of its own; returns once the port is open.
    /// One thread is plenty for calls that wait on the network (the disk writes run on
    /// tokio's blocking pool).
    pub fn start(settings: ProxySettings, log: SharedLog) -> Result<Running, RecordError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(RecordError::Runtime)?;
        let recorder = runtime.block_on(Recorder::bind(settings, log))?;
        let addr = recorder.local_addr();
        let folder = recorder.folder().to_path_buf();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("jxray-record".into())
            .spawn(move || {
                let stop = async {
                    let _ = stopped.await;
                };
                runtime.block_on(recorder.serve_until(stop, STOP_GRACE))
            })
            .map_err(RecordError::Runtime)?;
        Ok(Running {
            stop: Some(stop),
            thread: Some(thread),
            addr,
            folder,
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The capture folder, canonical.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Stop: no new calls, the calls in flight kept as far as they arrived, and every
    /// capture written (waiting at most [`STOP_GRACE`]).
    pub fn stop(mut self) -> Stopped {
        self.stop_now()
    }

    fn stop_now(&mut self) -> Stopped {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take().map(|thread| thread.join()) {
            Some(Ok(stopped)) => stopped,
            _ => Stopped { unwritten: 0 },
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop_now();
    }
}
