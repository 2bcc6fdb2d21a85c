//! Blocks for indexers: a block's hash by number, the block by hash, raw
//! storage (`System.Events`) and the runtime version at a block, and a
//! whole range fetched with bounded concurrency and retries, in order.

use std::future::Future;
use std::ops::Range;
use std::time::Duration;

use futures_util::stream::{self, Stream, StreamExt};
use serde_json::Value;

use crate::answer::{self, Hash};
use crate::client::Client;
use crate::error::Error;

/// A block as the node gives it: header fields an indexer needs and the
/// extrinsics as SCALE bytes (each with its compact length prefix, the
/// form `ferroscale-dynamic` decodes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The block number.
    pub number: u64,
    /// The block hash (the one asked for).
    pub hash: Hash,
    /// The parent block's hash.
    pub parent_hash: Hash,
    /// The state root after the block.
    pub state_root: Hash,
    /// The root of the block's extrinsics.
    pub extrinsics_root: Hash,
    /// The header's digest logs, each a SCALE `DigestItem`.
    pub digest: Vec<Vec<u8>>,
    /// The extrinsics, in block order.
    pub extrinsics: Vec<Vec<u8>>,
}

impl Block {
    /// The hash of the header as the node gives it (BLAKE2b-256 of its
    /// SCALE encoding), to compare with the hash the block was asked by.
    pub fn header_hash(&self) -> Hash {
        ferroscale_core::hashing::header_hash(
            &self.parent_hash,
            self.number,
            &self.state_root,
            &self.extrinsics_root,
            &self.digest,
        )
    }
}

/// The runtime version at a block (`state_getRuntimeVersion`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeVersion {
    /// `specName`, e.g. `polkadot`.
    pub spec_name: String,
    /// `specVersion`, e.g. `1000001`.
    pub spec_version: u32,
    /// `transactionVersion`, when the node gives it.
    pub transaction_version: Option<u32>,
}

/// One block of a range with what the options asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedBlock {
    /// The block.
    pub block: Block,
    /// The `System.Events` storage value at the block (`None` when not
    /// asked for, or when the node has no value under the key).
    pub events: Option<Vec<u8>>,
    /// The runtime version at the block (`None` when not asked for).
    pub runtime: Option<RuntimeVersion>,
}

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

/// What [`Client::blocks`] fetches per block, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeOptions {
    /// Blocks fetched at the same time (at least 1).
    pub concurrency: usize,
    /// Retries of each request.
    pub retry: RetryPolicy,
    /// Fetch the `System.Events` value of each block.
    pub events: bool,
    /// Fetch the runtime version of each block (one more request a block;
    /// an indexer that tracks upgrades itself can leave it off).
    pub runtime_version: bool,
}

impl Default for RangeOptions {
    fn default() -> Self {
        RangeOptions {
            concurrency: 8,
            retry: RetryPolicy::default(),
            events: true,
            runtime_version: true,
        }
    }
}

/// The storage key of `System.Events`: `twox128("System") ++ twox128("Events")`.
pub fn system_events_key() -> [u8; 32] {
    ferroscale_core::hashing::storage_prefix("System", "Events")
}

fn hex(bytes: &[u8]) -> Value {
    Value::from(ferroscale_core::hex::encode_prefixed(bytes))
}

fn malformed(method: &str, reason: String) -> Error {
    Error::Malformed {
        method: method.to_owned(),
        reason,
    }
}

impl Client {
    /// The hash of block `number` (`chain_getBlockHash`); `None` when the
    /// node has no such block.
    pub async fn block_hash(&self, number: u64) -> Result<Option<Hash>, Error> {
        const M: &str = "chain_getBlockHash";
        let answer = self.request(M, vec![Value::from(number)]).await?;
        if answer.is_null() {
            return Ok(None);
        }
        answer::hash(M, "the block hash", &answer).map(Some)
    }

    /// The number of the newest finalized block (`chain_getFinalizedHead`,
    /// then that block's header): blocks up to it will not change.
    pub async fn finalized_number(&self) -> Result<u64, Error> {
        let head = self.request("chain_getFinalizedHead", vec![]).await?;
        let hash = answer::hash("chain_getFinalizedHead", "the finalized head", &head)?;
        const M: &str = "chain_getHeader";
        let header = self.request(M, vec![hex(&hash)]).await?;
        if header.is_null() {
            return Err(Error::NotFound {
                what: format!(
                    "the header of the finalized head {}",
                    ferroscale_core::hex::encode_prefixed(&hash)
                ),
            });
        }
        answer::number(M, "number", answer::field(M, &header, "number")?)
    }

    /// The block with hash `hash` (`chain_getBlock`); `None` when the node
    /// does not know it.
    pub async fn block(&self, hash: &Hash) -> Result<Option<Block>, Error> {
        const M: &str = "chain_getBlock";
        let answer = self.request(M, vec![hex(hash)]).await?;
        if answer.is_null() {
            return Ok(None);
        }
        let block = answer::field(M, &answer, "block")?;
        let header = answer::field(M, block, "header")?;
        let number = answer::number(M, "header.number", answer::field(M, header, "number")?)?;
        let root = |name: &str| {
            answer::hash(
                M,
                &format!("header.{name}"),
                answer::field(M, header, name)?,
            )
        };
        let parent_hash = root("parentHash")?;
        let (state_root, extrinsics_root) = (root("stateRoot")?, root("extrinsicsRoot")?);
        let logs = answer::field(M, answer::field(M, header, "digest")?, "logs")?;
        let digest = answer::hex_list(M, "digest.logs", "digest log", logs)?;
        let extrinsics = answer::hex_list(
            M,
            "extrinsics",
            "extrinsic",
            answer::field(M, block, "extrinsics")?,
        )?;
        Ok(Some(Block {
            number,
            hash: *hash,
            parent_hash,
            state_root,
            extrinsics_root,
            digest,
            extrinsics,
        }))
    }

    /// The raw storage value under `key` at block `at` (`state_getStorage`);
    /// `None` when there is none.
    pub async fn storage(&self, key: &[u8], at: Option<&Hash>) -> Result<Option<Vec<u8>>, Error> {
        const M: &str = "state_getStorage";
        let mut params = vec![hex(key)];
        params.extend(at.map(|h| hex(h)));
        let answer = self.request(M, params).await?;
        answer::opt_hex_bytes(M, "the storage value", &answer)
    }

    /// The `System.Events` value at block `at` (the encoded
    /// `Vec<EventRecord>`).
    pub async fn events(&self, at: Option<&Hash>) -> Result<Option<Vec<u8>>, Error> {
        self.storage(&system_events_key(), at).await
    }

    /// The runtime version at block `at` (`state_getRuntimeVersion`).
    pub async fn runtime_version(&self, at: Option<&Hash>) -> Result<RuntimeVersion, Error> {
        const M: &str = "state_getRuntimeVersion";
        let answer = self
            .request(M, at.map(|h| vec![hex(h)]).unwrap_or_default())
            .await?;
        let spec_name = answer::field(M, &answer, "specName")?
            .as_str()
            .ok_or_else(|| malformed(M, "`specName` is not a string".into()))?
            .to_owned();
        let u32_field = |name: &str| -> Result<Option<u32>, Error> {
            match &answer {
                Value::Object(map) => match map.get(name) {
                    None | Some(Value::Null) => Ok(None),
                    Some(v) => v
                        .as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .map(Some)
                        .ok_or_else(|| malformed(M, format!("`{name}` is not a u32"))),
                },
                _ => Ok(None),
            }
        };
        let spec_version =
            u32_field("specVersion")?.ok_or_else(|| malformed(M, "no `specVersion`".into()))?;
        Ok(RuntimeVersion {
            spec_name,
            spec_version,
            transaction_version: u32_field("transactionVersion")?,
        })
    }

    /// Block `number` with its events and runtime version as `options`
    /// ask, each request retried by `options.retry`. Errors carry the block
    /// number ([`Error::Block`]).
    pub async fn fetch_block(
        &self,
        number: u64,
        options: &RangeOptions,
    ) -> Result<FetchedBlock, Error> {
        self.fetch_block_inner(number, options)
            .await
            .map_err(|source| Error::Block {
                number,
                source: Box::new(source),
            })
    }

    async fn fetch_block_inner(
        &self,
        number: u64,
        options: &RangeOptions,
    ) -> Result<FetchedBlock, Error> {
        let retry = options.retry;
        let hash = retry
            .run(|| self.block_hash(number))
            .await?
            .ok_or_else(|| Error::NotFound {
                what: format!("block {number}"),
            })?;
        let block = retry
            .run(|| self.block(&hash))
            .await?
            .ok_or_else(|| Error::NotFound {
                what: format!("block {}", ferroscale_core::hex::encode_prefixed(&hash)),
            })?;
        if block.number != number {
            return Err(malformed(
                "chain_getBlock",
                format!("asked for block {number}, got block {}", block.number),
            ));
        }
        let events = if options.events {
            retry.run(|| self.events(Some(&hash))).await?
        } else {
            None
        };
        let runtime = if options.runtime_version {
            Some(retry.run(|| self.runtime_version(Some(&hash))).await?)
        } else {
            None
        };
        Ok(FetchedBlock {
            block,
            events,
            runtime,
        })
    }

    /// The blocks of `range`, in order, fetched `options.concurrency` at a
    /// time. A block that still fails after its retries is yielded as an
    /// [`Error::Block`] naming it; the stream goes on with the next block
    /// (the consumer decides whether to stop).
    pub fn blocks(
        &self,
        range: Range<u64>,
        options: RangeOptions,
    ) -> impl Stream<Item = Result<FetchedBlock, Error>> + Send + 'static {
        let client = self.clone();
        stream::iter(range)
            .map(move |number| {
                let client = client.clone();
                async move { client.fetch_block(number, &options).await }
            })
            .buffered(options.concurrency.max(1))
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

    #[test]
    fn events_key_is_twox128_system_events() {
        assert_eq!(
            ferroscale_core::hex::encode_prefixed(&system_events_key()),
            "0x26aa394eea5630e07c48ae0c9558cef780d41e5e16056765bc8461851072c9d7"
        );
    }
}
