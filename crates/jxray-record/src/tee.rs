//! A body that forwards every frame the moment it arrives and keeps a bounded copy.
//!
//! The copy is handed over once, when the body ends, fails, or is dropped (the client or
//! the upstream went away). Past the limit, or when the budget shared by every exchange
//! has no room, the body keeps flowing; the copy is dropped and only counted, so memory
//! stays bounded whatever the bodies' sizes.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::sync::oneshot;
use tokio::time::{sleep_until, Instant, Sleep};

use crate::budget::{Budget, Held, Refused};

/// The error type of proxied bodies.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How a teed body ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Every byte arrived.
    Complete,
    /// The body broke off with this error (the upstream failed, or went silent).
    Failed(String),
    /// The reader went away before the end (the client hung up).
    Dropped,
    /// A watch ended the stream (`--stop-on`): the upstream was dropped, the client's
    /// stream given the ending.
    Stopped(crate::Stop),
}

/// What a teed body saw.
#[derive(Debug)]
pub struct Teed {
    /// The bytes, or empty when the body was not kept.
    pub bytes: Held,
    /// Every byte that went through, kept or not.
    pub total: u64,
    /// Why the copy was dropped, if it was.
    pub refused: Option<Refused>,
    pub end: End,
    /// When the body's bytes came, for a stream: (milliseconds from the request, bytes
    /// through by then), at most [`MAX_ARRIVALS`] points (coarser for longer streams).
    pub arrivals: Vec<(u64, u64)>,
}

/// The most arrival points kept for one body: past it, every other one goes (the points
/// left are exact, only farther apart).
pub const MAX_ARRIVALS: usize = 4096;

/// Wraps `B`, forwarding its frames and copying their data.
pub struct Tee<B> {
    /// The upstream's body; gone once a watch stopped the stream (dropping it ends the
    /// upstream request).
    inner: Option<B>,
    /// Watches the body, with `--stop-on`.
    watch: Option<Box<dyn crate::StreamWatch>>,
    /// A watch said stop: the ending still to send, and why.
    stopping: Option<crate::Stop>,
    /// With a clock, when each frame came (a stream's arrival).
    arrivals: Option<(Instant, Vec<(u64, u64)>)>,
    /// Where the watch's status goes while the call is in flight.
    progress: Option<Progress>,
    copy: Held,
    total: u64,
    refused: Option<Refused>,
    done: Option<oneshot::Sender<Teed>>,
    idle: Option<Idle>,
}

/// A call in flight, told to the log as its watch's status changes.
struct Progress {
    call: u64,
    log: crate::SharedLog,
    /// The call, for the line (`POST /openai/chat/completions`).
    label: String,
    said: Option<String>,
    at: Option<Instant>,
}

/// The least time between two statuses of one call.
const STATUS_EVERY: Duration = Duration::from_millis(200);

/// Fails the body when no frame arrives for `after`.
struct Idle {
    after: Duration,
    timer: Pin<Box<Sleep>>,
}

impl<B> Tee<B> {
    /// A tee keeping up to `limit` bytes taken from `budget`, and a receiver for what it
    /// saw. With `idle`, the body fails when the inner body is silent that long.
    pub fn new(
        inner: B,
        limit: usize,
        budget: &Arc<Budget>,
        idle: Option<Duration>,
    ) -> (Tee<B>, oneshot::Receiver<Teed>)
    where
        B: Body,
    {
        let (sender, receiver) = oneshot::channel();
        let empty = inner.is_end_stream();
        let mut tee = Tee {
            inner: Some(inner),
            watch: None,
            stopping: None,
            arrivals: None,
            progress: None,
            copy: Held::new(budget, limit),
            total: 0,
            refused: None,
            done: Some(sender),
            idle: idle.map(|after| Idle {
                after,
                timer: Box::pin(sleep_until(deadline(after))),
            }),
        };
        if empty {
            // A body with nothing in it (a GET) may never be polled at all.
            tee.finish(End::Complete);
        }
        (tee, receiver)
    }

    /// Keep when each frame came, in milliseconds from `since` (the request's start).
    pub fn keep_arrivals(&mut self, since: Instant) {
        self.arrivals = Some((since, Vec::new()));
    }

    /// Watch the body as it passes, ending it where `watch` says.
    pub fn watch(&mut self, watch: Box<dyn crate::StreamWatch>) {
        self.watch = Some(watch);
    }

    /// Tell `log` where the watched stream stands while it is in flight, as call `call`.
    pub fn tell(&mut self, call: u64, log: crate::SharedLog, label: String) {
        self.progress = Some(Progress {
            call,
            log,
            label,
            said: None,
            at: None,
        });
    }

    /// Say the watch's status when it changed, at most every [`STATUS_EVERY`].
    fn say_status(&mut self) {
        let (Some(progress), Some(watch)) = (self.progress.as_mut(), self.watch.as_ref()) else {
            return;
        };
        // The status is written out only when one is due: not for every frame.
        if progress.at.is_some_and(|at| at.elapsed() < STATUS_EVERY) {
            return;
        }
        let Some(status) = watch
            .status()
            .filter(|status| progress.said.as_ref() != Some(status))
        else {
            return;
        };
        let line = format!("{} · {status}", progress.label);
        progress.log.in_flight(progress.call, Some(&line));
        progress.said = Some(status);
        progress.at = Some(Instant::now());
    }

    fn keep(&mut self, data: &[u8]) {
        self.total += data.len() as u64;
        if let Some((since, points)) = &mut self.arrivals {
            if points.len() == MAX_ARRIVALS {
                let mut kept = 0;
                points.retain(|_| {
                    kept += 1;
                    kept % 2 == 0
                });
            }
            points.push((since.elapsed().as_millis() as u64, self.total));
        }
        if self.refused.is_some() {
            return;
        }
        if let Err(refused) = self.copy.extend(data) {
            self.refused = Some(refused);
            self.copy.clear();
        }
    }

    /// A watch that says the stream is lost stops it: the upstream's body is dropped (its
    /// request ends, so the provider stops generating) and the ending goes out next.
    fn stop_if_lost(&mut self, data: &[u8]) {
        let Some(stop) = self.watch.as_mut().and_then(|watch| watch.feed(data)) else {
            return;
        };
        self.watch = None;
        self.inner = None;
        self.idle = None;
        self.stopping = Some(stop);
    }

    fn finish(&mut self, end: End) {
        if let Some(progress) = self.progress.take() {
            progress.log.in_flight(progress.call, None);
        }
        if let Some(done) = self.done.take() {
            let limit = self.copy.limit();
            let budget = self.copy.budget().clone();
            let _ = done.send(Teed {
                bytes: std::mem::replace(&mut self.copy, Held::new(&budget, limit)),
                total: self.total,
                refused: self.refused,
                end,
                arrivals: self
                    .arrivals
                    .take()
                    .map(|(_, points)| points)
                    .unwrap_or_default(),
            });
        }
    }
}

/// `after` from now; a timeout too long for the clock (the flag's range stops it, but a
/// library caller might not) is a week.
fn deadline(after: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(after)
        .unwrap_or_else(|| now + crate::Timeouts::MAX)
}

impl<B> Drop for Tee<B> {
    fn drop(&mut self) {
        self.finish(End::Dropped);
    }
}

impl<B> Body for Tee<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if this.done.is_none() {
            return Poll::Ready(None);
        }
        if let Some(stop) = this.stopping.take() {
            let ending = Frame::data(stop.ending.clone());
            this.finish(End::Stopped(stop));
            return Poll::Ready(Some(Ok(ending)));
        }
        let Some(inner) = this.inner.as_mut() else {
            return Poll::Ready(None);
        };
        match Pin::new(&mut *inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    let data = data.clone();
                    this.keep(&data);
                    this.stop_if_lost(&data);
                    this.say_status();
                }
                if let Some(idle) = &mut this.idle {
                    let after = idle.after;
                    idle.timer.as_mut().reset(deadline(after));
                }
                // A body of known length is not polled again after its last byte.
                if this.stopping.is_none() && this.inner.as_ref().is_some_and(B::is_end_stream) {
                    this.finish(End::Complete);
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => {
                let error: BoxError = error.into();
                this.finish(End::Failed(error.to_string()));
                Poll::Ready(Some(Err(error)))
            }
            Poll::Ready(None) => {
                this.finish(End::Complete);
                Poll::Ready(None)
            }
            Poll::Pending => {
                let Some(idle) = &mut this.idle else {
                    return Poll::Pending;
                };
                if idle.timer.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                let message = format!("the upstream sent nothing for {} s", idle.after.as_secs());
                this.finish(End::Failed(message.clone()));
                Poll::Ready(Some(Err(message.into())))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.done.is_none()
            || (self.stopping.is_none() && self.inner.as_ref().is_none_or(B::is_end_stream))
    }

    fn size_hint(&self) -> SizeHint {
        match (&self.inner, &self.stopping) {
            (Some(inner), None) => inner.size_hint(),
            _ => SizeHint::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::{BodyExt, Full};

    fn budget() -> Arc<Budget> {
        Budget::new(usize::MAX)
    }

    #[tokio::test]
    async fn the_copy_is_the_body_up_to_the_limit() {
        let (tee, done) = Tee::new(Full::new(Bytes::from_static(b"hello")), 10, &budget(), None);
        let bytes = tee.collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"hello");
        let teed = done.await.unwrap();
        assert_eq!(teed.bytes.as_slice(), b"hello");
        assert_eq!(teed.end, End::Complete);
        assert_eq!(teed.refused, None);
    }

    #[tokio::test]
    async fn a_streams_arrival_is_kept_bounded_to_its_last_byte() {
        let (mut tee, done) = Tee::new(Full::new(Bytes::from_static(b"x")), 10, &budget(), None);
        tee.keep_arrivals(Instant::now());
        for _ in 0..(MAX_ARRIVALS * 2 + 5) {
            tee.keep(b"ab");
        }
        drop(tee);
        let teed = done.await.unwrap();
        assert!(
            teed.arrivals.len() <= MAX_ARRIVALS,
            "{}",
            teed.arrivals.len()
        );
        assert!(teed.arrivals.len() > MAX_ARRIVALS / 2);
        assert_eq!(teed.arrivals.last().map(|point| point.1), Some(teed.total));
        assert!(teed.arrivals.windows(2).all(|w| w[0] <= w[1]), "in order");
    }

    #[tokio::test]
    async fn past_the_limit_the_body_flows_and_the_copy_is_dropped() {
        let (tee, done) = Tee::new(
            Full::new(Bytes::from_static(b"hello world")),
            4,
            &budget(),
            None,
        );
        let bytes = tee.collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"hello world");
        let teed = done.await.unwrap();
        assert_eq!(teed.refused, Some(Refused::OverLimit));
        assert!(teed.bytes.is_empty());
        assert_eq!(teed.total, 11);
    }

    #[tokio::test]
    async fn past_the_shared_budget_the_copy_is_dropped_and_its_bytes_given_back() {
        let budget = Budget::new(8);
        let (tee, done) = Tee::new(
            Full::new(Bytes::from_static(b"hello world")),
            100,
            &budget,
            None,
        );
        let bytes = tee.collect().await.unwrap().to_bytes();
        assert_eq!(&bytes[..], b"hello world");
        let teed = done.await.unwrap();
        assert_eq!(teed.refused, Some(Refused::OverBudget));
        assert_eq!(budget.used(), 0);
    }

    #[tokio::test]
    async fn an_idle_timeout_too_long_for_the_clock_does_not_panic() {
        let (tee, done) = Tee::new(
            Full::new(Bytes::from_static(b"x")),
            4,
            &budget(),
            Some(Duration::from_secs(u64::MAX)),
        );
        assert_eq!(&tee.collect().await.unwrap().to_bytes()[..], b"x");
        assert_eq!(done.await.unwrap().end, End::Complete);
    }

    #[tokio::test]
    async fn an_empty_body_is_complete_without_being_read() {
        let (tee, done) = Tee::new(Full::new(Bytes::new()), 4, &budget(), None);
        drop(tee);
        assert_eq!(done.await.unwrap().end, End::Complete);
    }

    #[tokio::test]
    async fn a_dropped_body_says_so() {
        let (tee, done) = Tee::new(Full::new(Bytes::from_static(b"x")), 4, &budget(), None);
        drop(tee);
        assert_eq!(done.await.unwrap().end, End::Dropped);
    }
}
