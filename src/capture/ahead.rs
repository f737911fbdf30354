//! Opening files ahead of the reader, several at once, in order.
//!
//! A file read whole (an envelope, a multi-megabyte output) is read, decoded and
//! recognised before its first capture exists; done one file at a time on the thread that
//! feeds `check`'s window, that is the slowest step of a folder of large files. Loaders
//! take the files in turn (file `j` goes to loader `j % loaders`) and hand each file's
//! captures over a channel of one, so the captures still come in file order and at most two
//! files a loader are open ahead of the reader.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::thread;

use super::Records;

/// The captures of `files` in order, each file opened by `open` on one of `loaders`
/// threads ahead of the reader. A loader that stops early (it panicked) ends the captures
/// there, as a panic on the reader's thread would.
pub fn opened_ahead<F>(files: Vec<PathBuf>, loaders: usize, open: F) -> Records
where
    F: Fn(&Path) -> Records + Send + Sync + 'static,
{
    let loaders = loaders.clamp(1, files.len().max(1));
    if loaders == 1 {
        return Box::new(files.into_iter().flat_map(move |file| open(&file)));
    }
    let open = Arc::new(open);
    let count = files.len();
    let receivers: Vec<Receiver<Records>> = (0..loaders)
        .map(|first| {
            let mine: Vec<PathBuf> = files.iter().skip(first).step_by(loaders).cloned().collect();
            let (sender, receiver) = mpsc::sync_channel(1);
            let open = Arc::clone(&open);
            // Not joined: when the reader stops early, the next send fails and it ends.
            thread::spawn(move || {
                for file in &mine {
                    if sender.send(open(file)).is_err() {
                        break;
                    }
                }
            });
            receiver
        })
        .collect();
    Box::new(
        (0..count)
            .map_while(move |index| receivers[index % loaders].recv().ok())
            .flatten(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::Capture;
    use std::time::Duration;

    /// A file "opens" into as many captures as its name says, slower for some.
    fn open(file: &Path) -> Records {
        let name = file.to_string_lossy().into_owned();
        let count: usize = name.parse().unwrap_or(0);
        thread::sleep(Duration::from_millis((count % 3) as u64));
        Box::new((0..count).map(move |i| Capture::from_text(format!("{name}/{i}"), "{}")))
    }

    #[test]
    fn captures_come_in_file_order_with_any_number_of_loaders() {
        let files: Vec<PathBuf> = [3, 0, 1, 5, 2, 0, 4, 1, 1, 2]
            .iter()
            .map(|n| PathBuf::from(n.to_string()))
            .collect();
        let expected: Vec<String> = files
            .iter()
            .flat_map(|file| open(file).map(|capture| capture.source))
            .collect();
        for loaders in [0, 1, 2, 3, 16] {
            let sources: Vec<String> = opened_ahead(files.clone(), loaders, open)
                .map(|capture| capture.source)
                .collect();
            assert_eq!(sources, expected, "{loaders} loaders");
        }
        assert_eq!(opened_ahead(Vec::new(), 4, open).count(), 0);
    }
}
