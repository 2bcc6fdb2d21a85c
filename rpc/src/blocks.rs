//! Blocks for indexers: a block's hash by number, the block by hash, raw
//! storage (`System.Events`) and the runtime version at a block, and a
//! whole range fetched with bounded concurrency and retries, in order.

use std::ops::Range;

use futures_util::stream::{self, Stream, StreamExt};
use serde_json::Value;

use crate::answer::{self, Hash};
use crate::client::Client;
use crate::error::Error;
use crate::retry::RetryPolicy;

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

/// What [`Client::blocks`] fetches per block, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeOptions {
    /// Requests in flight at the same time (at least 1): blocks, or
    /// batches of blocks.
    pub concurrency: usize,
    /// Blocks asked for in one JSON-RPC batch (at most 1: none, a request
    /// per call). A batch is two messages whatever its size (the hashes,
    /// then the blocks with their events), retried whole
    /// ([`Client::fetch_blocks`]). A node may limit or refuse batches
    /// (`--rpc-max-batch-request-len`): then 1.
    pub batch: usize,
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
            batch: 1,
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
        parse_block(hash, &answer)
    }
}

/// `chain_getBlock`'s answer for block `hash`; `None` for `null`.
fn parse_block(hash: &Hash, answer: &Value) -> Result<Option<Block>, Error> {
    const M: &str = "chain_getBlock";
    if answer.is_null() {
        return Ok(None);
    }
    let block = answer::field(M, answer, "block")?;
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

impl Client {
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
        parse_runtime_version(&answer)
    }
}

/// `state_getRuntimeVersion`'s answer.
fn parse_runtime_version(answer: &Value) -> Result<RuntimeVersion, Error> {
    const M: &str = "state_getRuntimeVersion";
    let spec_name = answer::field(M, answer, "specName")?
        .as_str()
        .ok_or_else(|| malformed(M, "`specName` is not a string".into()))?
        .to_owned();
    let u32_field = |name: &str| -> Result<Option<u32>, Error> {
        match answer {
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

impl Client {
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

    /// Blocks `numbers` with their events and runtime versions as
    /// `options` ask, in two JSON-RPC batches ([`Client::batch`]): their
    /// hashes, then the blocks with their storage. Each batch is retried
    /// whole by `options.retry` while its failure is transient (one call's
    /// transient error included); every error names the block it is of
    /// ([`Error::Block`]; the first block for the batch's own).
    pub async fn fetch_blocks(
        &self,
        numbers: Range<u64>,
        options: &RangeOptions,
    ) -> Result<Vec<FetchedBlock>, Error> {
        let Some(first) = numbers.clone().next() else {
            return Ok(Vec::new());
        };
        let retry = options.retry;
        let at = |number: u64, source: Error| match source {
            Error::Block { .. } => source,
            source => Error::Block {
                number,
                source: Box::new(source),
            },
        };
        let hash_calls: Vec<(&str, Vec<Value>)> = numbers
            .clone()
            .map(|n| ("chain_getBlockHash", vec![Value::from(n)]))
            .collect();
        let hashes = retry
            .run(|| async {
                let answers = self.batch(&hash_calls).await.map_err(|e| at(first, e))?;
                numbers
                    .clone()
                    .zip(answers)
                    .map(|(n, a)| {
                        let a = a.map_err(|e| at(n, e))?;
                        if a.is_null() {
                            return Err(at(
                                n,
                                Error::NotFound {
                                    what: format!("block {n}"),
                                },
                            ));
                        }
                        answer::hash("chain_getBlockHash", "the block hash", &a)
                            .map_err(|e| at(n, e))
                    })
                    .collect::<Result<Vec<Hash>, Error>>()
            })
            .await?;
        let key = hex(&system_events_key());
        let mut calls = Vec::new();
        for h in &hashes {
            calls.push(("chain_getBlock", vec![hex(h)]));
            if options.events {
                calls.push(("state_getStorage", vec![key.clone(), hex(h)]));
            }
            if options.runtime_version {
                calls.push(("state_getRuntimeVersion", vec![hex(h)]));
            }
        }
        retry
            .run(|| async {
                let mut answers = self
                    .batch(&calls)
                    .await
                    .map_err(|e| at(first, e))?
                    .into_iter();
                let mut blocks = Vec::with_capacity(hashes.len());
                for (n, hash) in numbers.clone().zip(&hashes) {
                    // The batch answered every call (checked by `batch`).
                    let mut next = || {
                        answers
                            .next()
                            .unwrap_or_else(|| Err(malformed("batch", "an answer missing".into())))
                            .map_err(|e| at(n, e))
                    };
                    let block = parse_block(hash, &next()?)
                        .map_err(|e| at(n, e))?
                        .ok_or_else(|| {
                            at(
                                n,
                                Error::NotFound {
                                    what: format!(
                                        "block {}",
                                        ferroscale_core::hex::encode_prefixed(hash)
                                    ),
                                },
                            )
                        })?;
                    if block.number != n {
                        return Err(at(
                            n,
                            malformed(
                                "chain_getBlock",
                                format!("asked for block {n}, got block {}", block.number),
                            ),
                        ));
                    }
                    let events = if options.events {
                        answer::opt_hex_bytes("state_getStorage", "the storage value", &next()?)
                            .map_err(|e| at(n, e))?
                    } else {
                        None
                    };
                    let runtime = if options.runtime_version {
                        Some(parse_runtime_version(&next()?).map_err(|e| at(n, e))?)
                    } else {
                        None
                    };
                    blocks.push(FetchedBlock {
                        block,
                        events,
                        runtime,
                    });
                }
                Ok(blocks)
            })
            .await
    }

    /// The blocks of `range`, in order, `options.concurrency` requests in
    /// flight: single blocks, or batches of `options.batch` blocks
    /// ([`Client::fetch_blocks`]). A block that still fails after its
    /// retries is yielded as an [`Error::Block`] naming it; the stream goes
    /// on with the next block or batch (the consumer decides whether to
    /// stop).
    pub fn blocks(
        &self,
        range: Range<u64>,
        options: RangeOptions,
    ) -> impl Stream<Item = Result<FetchedBlock, Error>> + Send + 'static {
        let client = self.clone();
        let in_flight = options.concurrency.max(1);
        let batch = options.batch.max(1);
        if batch == 1 {
            return stream::iter(range)
                .map(move |number| {
                    let client = client.clone();
                    async move { client.fetch_block(number, &options).await }
                })
                .buffered(in_flight)
                .left_stream();
        }
        let end = range.end;
        stream::iter(range.step_by(batch))
            .map(move |start| {
                let client = client.clone();
                let numbers = start..start.saturating_add(batch as u64).min(end);
                async move { client.fetch_blocks(numbers, &options).await }
            })
            .buffered(in_flight)
            .flat_map(|fetched| {
                stream::iter(match fetched {
                    Ok(blocks) => blocks.into_iter().map(Ok).collect::<Vec<_>>(),
                    Err(e) => vec![Err(e)],
                })
            })
            .right_stream()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_key_is_twox128_system_events() {
        assert_eq!(
            ferroscale_core::hex::encode_prefixed(&system_events_key()),
            "0x26aa394eea5630e07c48ae0c9558cef780d41e5e16056765bc8461851072c9d7"
        );
    }
}
