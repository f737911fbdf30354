//! The listener: checks the capture folder, binds the address, and serves each client
//! connection (HTTP/1.1, keep-alive) on its own task.

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;

use crate::client::upstream;
use crate::proxy::{handle, State};
use crate::{ProxySettings, RecordError, SharedLog};

/// How long a client may take to send a request head.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// A bound, ready proxy.
pub struct Recorder {
    listener: TcpListener,
    state: Arc<State>,
}

impl Recorder {
    /// Create and check the capture folder, then bind the address.
    pub async fn bind(settings: ProxySettings, log: SharedLog) -> Result<Recorder, RecordError> {
        let root = prepare_folder(&settings.to)?;
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
            root,
            log,
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
        &self.state.root
    }

    /// Serve until the task is dropped.
    pub async fn serve(self) {
        loop {
            let stream = match self.listener.accept().await {
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
            tokio::spawn(async move {
                let service = service_fn(move |request| handle(state.clone(), request));
                // A client that goes away mid-call ends this with an error: nothing to report.
                let _ = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(HEADER_READ_TIMEOUT)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    }
}

/// Create the folder when missing, check a file can be written in it, and return its
/// canonical path (every write is checked to stay under it).
fn prepare_folder(path: &Path) -> Result<PathBuf, RecordError> {
    let folder_error = |source| RecordError::Folder {
        path: path.to_path_buf(),
        source,
    };
    fs::create_dir_all(path).map_err(folder_error)?;
    let root = fs::canonicalize(path).map_err(folder_error)?;
    tempfile::Builder::new()
        .prefix(".jxray-tmp-")
        .tempfile_in(&root)
        .map_err(folder_error)?;
    Ok(root)
}

/// A recorder serving on its own runtime threads, for a caller that is not async (the
/// `jxray record` command; with `--tui`, the workbench runs on the calling thread).
pub struct Running {
    /// Dropped or sent: the serving thread stops.
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
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
                runtime.block_on(async {
                    tokio::select! {
                        _ = recorder.serve() => {}
                        _ = stopped => {}
                    }
                });
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

    /// Serve until the process is stopped.
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
