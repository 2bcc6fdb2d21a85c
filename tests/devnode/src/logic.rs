//! The runtime's logic the node adds to the loopback test node: account
//! nonces, and transactions, which it decodes and whose signatures it
//! checks against the payload it builds itself from its own chain (genesis,
//! the era's checkpoint block, spec and transaction versions, the metadata
//! hash), as a node's transaction pool does before it accepts one.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use ed25519_dalek::{Signature, SigningKey, Verifier, VerifyingKey};
use ferroscale_core::hashing::blake2_256;
use ferroscale_dynamic::registry::Registry;
use ferroscale_metadata::digest::{metadata_hash, ChainInfo, Merkleized};
use ferroscale_metadata::Metadata;
use ferroscale_rpc::test_server::{BlockAt, ErrorObjectOwned, NodeLogic};
use ferroscale_value::Value;
use parity_scale_codec::{Compact, Decode, Encode};
use serde_json::Value as Json;

/// The ed25519 public key of `seed`.
pub(crate) fn public_key(seed: &[u8; 32]) -> [u8; 32] {
    SigningKey::from_bytes(seed).verifying_key().to_bytes()
}

/// One runtime: its metadata, read three ways (the model, the dynamic
/// registry that decodes transactions, the RFC-0078 form that cuts them).
pub(crate) struct RuntimeLogic {
    pub(crate) bytes: Vec<u8>,
    pub(crate) spec_name: String,
    pub(crate) spec_version: u32,
    pub(crate) transaction_version: u32,
    metadata: Arc<Metadata>,
    registry: Mutex<Registry>,
    merkleized: Merkleized,
    /// What `CheckMetadataHash` signs when enabled.
    metadata_hash: [u8; 32],
}

impl std::fmt::Debug for RuntimeLogic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RuntimeLogic({} {})", self.spec_name, self.spec_version)
    }
}

impl RuntimeLogic {
    /// Reads fixture `file`'s metadata `bytes`; `decimals` and `symbol` are
    /// the chain's token facts its metadata hash covers.
    pub(crate) fn load(
        file: &str,
        bytes: Vec<u8>,
        decimals: u8,
        symbol: &str,
    ) -> Result<RuntimeLogic, String> {
        let within = |e: String| format!("{file}: {e}");
        let metadata = Metadata::load(&bytes).map_err(|e| within(e.to_string()))?;
        let mut registry = Registry::new();
        registry
            .load_metadata(&bytes)
            .map_err(|e| within(e.to_string()))?;
        let (spec_version, transaction_version) = registry
            .runtime_versions()
            .map_err(|e| within(e.to_string()))?;
        let spec_name = metadata
            .spec_name()
            .ok_or_else(|| within("no System.Version spec name".into()))?
            .to_owned();
        let merkleized = Merkleized::new(&metadata).map_err(|e| within(e.to_string()))?;
        let metadata_hash = metadata_hash(&metadata, &ChainInfo::new(decimals, symbol))
            .map_err(|e| within(e.to_string()))?;
        Ok(RuntimeLogic {
            bytes,
            spec_name,
            spec_version,
            transaction_version,
            metadata: Arc::new(metadata),
            registry: Mutex::new(registry),
            merkleized,
            metadata_hash,
        })
    }

    /// Checks that `value` reads as an `AccountInfo` of this runtime with
    /// free balance `free` (the node's storage must be what its metadata says).
    pub(crate) fn check_account_info(&self, value: &[u8], free: u128) -> Result<(), String> {
        let mut registry = self.registry.lock().unwrap_or_else(|e| e.into_inner());
        let read = registry
            .decode_storage("System", "Account", value)
            .map_err(|e| format!("spec {}: System.Account: {e}", self.spec_version))?;
        let got = read
            .get("data")
            .and_then(|d| d.get("free"))
            .and_then(Value::as_u128);
        if got != Some(free) {
            return Err(format!(
                "spec {}: System.Account reads as {read}, not free = {free}",
                self.spec_version
            ));
        }
        Ok(())
    }
}

/// The node's logic over its runtimes and accounts.
#[derive(Debug)]
pub(crate) struct DevLogic {
    runtimes: Vec<RuntimeLogic>,
    nonces: BTreeMap<[u8; 32], u32>,
}

const METHODS: &[&str] = &[
    "author_submitExtrinsic",
    "system_accountNextIndex",
    "account_nextIndex",
];

impl DevLogic {
    pub(crate) fn new(runtimes: Vec<RuntimeLogic>, nonces: BTreeMap<[u8; 32], u32>) -> DevLogic {
        DevLogic { runtimes, nonces }
    }

    fn runtime(&self, at: &BlockAt<'_>) -> Result<&RuntimeLogic, ErrorObjectOwned> {
        self.runtimes
            .iter()
            .find(|r| r.spec_version == at.runtime.spec_version)
            .ok_or_else(|| internal(format!("no logic for spec {}", at.runtime.spec_version)))
    }

    fn nonce_of(&self, account: &[u8]) -> u32 {
        <[u8; 32]>::try_from(account)
            .ok()
            .and_then(|a| self.nonces.get(&a).copied())
            .unwrap_or(0)
    }

    /// `author_submitExtrinsic`: the transaction's hash once it is accepted.
    fn submit(&self, params: &[Json], at: BlockAt<'_>) -> Result<Json, ErrorObjectOwned> {
        let text = params
            .first()
            .and_then(Json::as_str)
            .ok_or_else(|| invalid("extrinsic: not a hex string"))?;
        let bytes = ferroscale_core::hex::decode(text.trim_start_matches("0x"))
            .map_err(|e| invalid(&format!("extrinsic: {e}")))?;
        let rt = self.runtime(&at)?;
        let checked = check_transaction(rt, &bytes, &at)?;
        if checked.nonce < self.nonce_of(&checked.signer) {
            return Err(invalid_transaction("Transaction is outdated"));
        }
        Ok(Json::from(ferroscale_core::hex::encode_prefixed(
            &blake2_256(&bytes),
        )))
    }
}

impl NodeLogic for DevLogic {
    fn methods(&self) -> &'static [&'static str] {
        METHODS
    }

    fn answer(
        &self,
        method: &str,
        params: &[Json],
        at: BlockAt<'_>,
    ) -> Option<Result<Json, ErrorObjectOwned>> {
        Some(match method {
            "author_submitExtrinsic" => self.submit(params, at),
            "system_accountNextIndex" | "account_nextIndex" => {
                match params.first().and_then(Json::as_str) {
                    Some(address) => ferroscale_core::ss58::decode(address, None)
                        .map(|d| Json::from(self.nonce_of(&d.payload)))
                        .map_err(|e| invalid(&format!("account {address:?}: {e}"))),
                    None => Err(invalid("account: not an address")),
                }
            }
            "state_call" => {
                let name = params.first().and_then(Json::as_str).unwrap_or_default();
                let data = params
                    .get(1)
                    .and_then(Json::as_str)
                    .and_then(|t| ferroscale_core::hex::decode(t.trim_start_matches("0x")).ok());
                match (name, data) {
                    ("AccountNonceApi_account_nonce", Some(account)) if account.len() == 32 => {
                        Ok(Json::from(ferroscale_core::hex::encode_prefixed(
                            &self.nonce_of(&account).encode(),
                        )))
                    }
                    ("AccountNonceApi_account_nonce", _) => Err(invalid(
                        "AccountNonceApi_account_nonce takes a 32-byte account",
                    )),
                    _ => Err(ErrorObjectOwned::owned(
                        4003,
                        format!(
                            "Client error: Execution failed: Exported method {name} is not found"
                        ),
                        None::<()>,
                    )),
                }
            }
            _ => return None,
        })
    }
}

/// What a checked transaction says of itself.
struct Checked {
    signer: Vec<u8>,
    nonce: u32,
}

/// Decodes signed format-4 transaction `bytes` with `rt`, rebuilds what its
/// signer must have signed from the node's own chain, and checks the
/// ed25519 signature. Errors are a node's: 1002 for bytes that do not
/// decode, 1010 for an invalid transaction.
fn check_transaction(
    rt: &RuntimeLogic,
    bytes: &[u8],
    at: &BlockAt<'_>,
) -> Result<Checked, ErrorObjectOwned> {
    let undecodable = |e: String| {
        ErrorObjectOwned::owned(
            1002,
            format!("Verification Error: Runtime error: Execution failed: could not decode: {e}"),
            None::<()>,
        )
    };
    let parts = rt
        .merkleized
        .split_extrinsic(bytes)
        .map_err(|e| undecodable(e.to_string()))?;
    let decoded = {
        let mut registry = rt.registry.lock().unwrap_or_else(|e| e.into_inner());
        registry
            .decode("Extrinsic", bytes)
            .map_err(|e| undecodable(e.to_string()))?
    };
    // After the length prefix and the version byte: `MultiAddress::Id`
    // and `MultiSignature::Ed25519`, the only forms this node checks.
    let body = &bytes[bytes.len() - parts.call.len() - parts.included_in_extrinsic.len()..];
    let prefix_len = bytes.len() - body.len();
    let head = &bytes[..prefix_len];
    // (`split_extrinsic` checked the length prefix and the version byte)
    let mut after_prefix = bytes;
    Compact::<u32>::decode(&mut after_prefix).map_err(|e| undecodable(e.to_string()))?;
    let version_at = bytes.len() - after_prefix.len();
    let signed = head
        .get(version_at + 1..)
        .filter(|s| s.len() == 1 + 32 + 1 + 64 && s[0] == 0 && s[33] == 0)
        .ok_or_else(|| {
            invalid_transaction(
                "the node checks MultiAddress::Id senders with ed25519 signatures only",
            )
        })?;
    let public: [u8; 32] = signed[1..33]
        .try_into()
        .map_err(|_| internal("key".into()))?;
    let signature: [u8; 64] = signed[34..98]
        .try_into()
        .map_err(|_| internal("sig".into()))?;

    let mut additional = Vec::new();
    for ext in rt.metadata.extrinsic.signed_extensions_v4() {
        match ext.identifier.as_str() {
            "CheckSpecVersion" => rt.spec_version.encode_to(&mut additional),
            "CheckTxVersion" => rt.transaction_version.encode_to(&mut additional),
            "CheckGenesis" => additional.extend_from_slice(&genesis(at)?),
            "CheckMortality" | "CheckEra" => {
                let era = decoded
                    .get("era")
                    .ok_or_else(|| internal("no era".into()))?;
                additional.extend_from_slice(&era_checkpoint(era, at)?);
            }
            "CheckMetadataHash" => {
                let mode = decoded.get("mode").map(mode_name).unwrap_or_default();
                match mode.as_str() {
                    "Enabled" => Some(rt.metadata_hash).encode_to(&mut additional),
                    _ => None::<[u8; 32]>.encode_to(&mut additional),
                }
            }
            other => {
                // Any other extension must sign nothing extra.
                let ty = ext.additional_signed;
                let empty = ty.is_none_or(|ty| {
                    let mut registry = rt.registry.lock().unwrap_or_else(|e| e.into_inner());
                    registry.decode(&format!("scale_info::{ty}"), &[]).is_ok()
                });
                if !empty {
                    return Err(invalid_transaction(&format!(
                        "extension {other} signs data the node cannot supply"
                    )));
                }
            }
        }
    }
    let mut payload = [
        parts.call,
        parts.included_in_extrinsic,
        additional.as_slice(),
    ]
    .concat();
    if payload.len() > 256 {
        payload = blake2_256(&payload).to_vec();
    }
    let key = VerifyingKey::from_bytes(&public)
        .map_err(|_| invalid_transaction("Transaction has a bad signature"))?;
    key.verify(&payload, &Signature::from_bytes(&signature))
        .map_err(|_| invalid_transaction("Transaction has a bad signature"))?;
    let nonce = decoded
        .get("nonce")
        .and_then(Value::as_u128)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| invalid_transaction("no nonce"))?;
    Ok(Checked {
        signer: public.to_vec(),
        nonce,
    })
}

/// `CheckMetadataHash`'s mode as text, however the decoded value shows it.
fn mode_name(value: &Value) -> String {
    match value {
        Value::Str(s) => s.to_string(),
        Value::Dict(fields) => fields
            .first()
            .map(|(k, v)| match v {
                Value::Null => k.to_string(),
                other => mode_name(other),
            })
            .unwrap_or_default(),
        _ => String::new(),
    }
}

fn genesis(at: &BlockAt<'_>) -> Result<[u8; 32], ErrorObjectOwned> {
    if at.first_number != 0 {
        return Err(internal("the node has no genesis block".into()));
    }
    at.chain
        .first()
        .copied()
        .ok_or_else(|| internal("the node has no blocks".into()))
}

/// The hash of an era's checkpoint block: the genesis for an immortal era,
/// else the block the era was born at, counted from the node's best block.
fn era_checkpoint(era: &Value, at: &BlockAt<'_>) -> Result<[u8; 32], ErrorObjectOwned> {
    let pair = match era {
        Value::Str(s) if s.as_ref() == "00" => return genesis(at),
        Value::Dict(_) => era.get("period").zip(era.get("phase")),
        Value::List(items) | Value::Tuple(items) if items.len() == 2 => {
            Some((&items[0], &items[1]))
        }
        _ => None,
    };
    let (period, phase) = pair
        .and_then(|(p, q)| Some((p.as_u128()?, q.as_u128()?)))
        .and_then(|(p, q)| Some((u64::try_from(p).ok()?, u64::try_from(q).ok()?)))
        .ok_or_else(|| invalid_transaction(&format!("era {era} is not an era")))?;
    let quantize = (period >> 12).max(1);
    let current = at.number;
    let birth = (current.max(phase) - phase) / quantize * quantize + phase;
    birth
        .checked_sub(at.first_number)
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| at.chain.get(i))
        .copied()
        .ok_or_else(|| invalid_transaction("Transaction has an ancient birth block"))
}

fn invalid_transaction(why: &str) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(1010, "Invalid Transaction", Some(why))
}

fn invalid(what: &str) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32602, format!("Invalid params: {what}"), None::<()>)
}

fn internal(what: String) -> ErrorObjectOwned {
    ErrorObjectOwned::owned(-32603, format!("Internal error: {what}"), None::<()>)
}
