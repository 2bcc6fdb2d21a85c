//! [`RetryPolicy`]: how a failed request (or connection) is tried again.

use std::future::Future;
use std::time::Duration;

use crate::error::Error;

/// How failed requests are retried: `max_attempts` tries in all, waiting
/// `initial_backoff`, then twice as long each time, at most `max_backoff`,
/// each wait drawn between half and all of that (jitter, so that requests
/// that failed together do not come back together), or what the node asked
/// for (`Retry-After` of a 429 or 503 answer). Only transient failures are
/// retried ([`Error::is_transient`]); one that outlives its tries is an
/// [`Error::GaveUp`] saying how many and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Tries per request, the first included (at least 1).
    pub max_attempts: u32,
    /// Wait before the second try.
    pub initial_backoff: Duration,
    /// Longest wait between tries.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 5,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// No retries: one attempt.
    pub fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        }
    }

    /// The wait after failed attempt `attempt` (1-based).
    pub fn backoff(&self, attempt: u32) -> Duration {
        let factor = 1u32
            .checked_shl(attempt.saturating_sub(1))
            .unwrap_or(u32::MAX);
        self.initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }

    /// The wait after failed attempt `attempt` with `error`: what the node
    /// asked for, else [`RetryPolicy::backoff`] less up to half (jitter).
    pub fn wait(&self, attempt: u32, error: &Error) -> Duration {
        if let Some(after) = error.retry_after() {
            return after;
        }
        let full = self.backoff(attempt);
        // Jitter from the clock's nanoseconds: no generator needed for a
        // spread that only has to differ between requests.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        full / 2 + full.mul_f64(f64::from(nanos % 1000) / 2000.0)
    }

    /// Runs `op` until it succeeds, fails for good, or the attempts are
    /// used up (then [`Error::GaveUp`] around the last failure).
    pub async fn run<T, F, Fut>(&self, mut op: F) -> Result<T, Error>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Error>>,
    {
        let started = std::time::Instant::now();
        let mut attempt = 1;
        loop {
            match op().await {
                Ok(v) => return Ok(v),
                Err(e) if e.is_transient() && attempt < self.max_attempts.max(1) => {
                    tokio::time::sleep(self.wait(attempt, &e)).await;
                    attempt += 1;
                }
                Err(e) if e.is_transient() && attempt > 1 => {
                    return Err(Error::GaveUp {
                        attempts: attempt,
                        elapsed: started.elapsed(),
                        source: Box::new(e),
                    })
                }
                Err(e) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        let p = RetryPolicy {
            max_attempts: 10,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(700),
        };
        let waits: Vec<_> = (1..=5).map(|a| p.backoff(a).as_millis()).collect();
        assert_eq!(waits, vec![100, 200, 400, 700, 700]);
        assert_eq!(p.backoff(200), Duration::from_millis(700));
    }
}
