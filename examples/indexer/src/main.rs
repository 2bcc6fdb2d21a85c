#![forbid(unsafe_code)]
//! An indexer's first steps with ferroscale: a real Polkadot block, typed and dynamic.
use ferroscale::core::hex;
use ferroscale::dynamic::registry::Registry;
use ferroscale::metadata::Metadata;
use ferroscale::runtime_types::decode_all;
use ferroscale::value::Value;

// Types generated at compile time for Polkadot spec 1000001, the runtime of
// block 18,468,942 (in your crate: `metadata = "polkadot.scale"`, relative to
// your Cargo.toml; `fixture` names a file of ferroscale's fixtures folder).
#[ferroscale::runtime(fixture = "metadata/polkadot-v14-spec1000001.scale")]
mod polkadot {}
use polkadot::runtime_types::pallet_transaction_payment::pallet::Event as Fee;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).ok_or("usage: FIXTURES_DIR")?);
    let read = |name: &str| std::fs::read_to_string(dir.join(name));
    // Metadata as a node's `state_getMetadata` answers it: 0x-prefixed hex.
    let file = dir.join("metadata/polkadot-v14-spec1000001.scale");
    let rpc_hex = hex::encode_prefixed(&std::fs::read(file)?);
    let metadata = Metadata::from_hex(&rpc_hex)?;
    // Types that know their runtime: check before decoding. After an upgrade
    // (here: spec 9180's metadata) the check says which items changed.
    metadata.check(&polkadot::RUNTIME)?;
    let other = Metadata::from_bytes(&std::fs::read(
        dir.join("metadata/polkadot-v14-spec9180.scale"),
    )?)?;
    if let Err(e) = other.check(&polkadot::RUNTIME) {
        println!("refused: {e:.160}…");
    }

    // Typed extrinsics and events of block 18,468,942.
    let block = "payloads/polkadot-block-18468942";
    let list = read(&format!("{block}/extrinsics.json"))?;
    for xt in list.split('"').filter(|s| s.starts_with("0x")) {
        let xt: polkadot::UncheckedExtrinsic = decode_all(&hex::decode(xt)?)?;
        let (pallet, call) = (xt.function.pallet_name(), xt.function.call_name());
        println!(
            "extrinsic signed={} {pallet}.{call}",
            xt.signature().is_some()
        );
    }
    let events_bytes = hex::decode(read(&format!("{block}/events.hex"))?.trim())?;
    let events: polkadot::pallets::system::storage::Events = decode_all(&events_bytes)?;
    let payer = events.iter().find_map(|r| match &r.event {
        polkadot::RuntimeEvent::TransactionPayment(Fee::TransactionFeePaid { who, .. }) => {
            Some(who)
        }
        _ => None,
    });
    let payer = payer.ok_or("no fee paid")?.to_ss58(0)?;
    println!("{} events; fee payer {payer}", events.len());

    // Dynamic: the same data by type string and by storage name.
    let mut registry = Registry::from_metadata(&metadata)?;
    registry.set_ss58_format(Some(0));
    let dynamic = registry.decode("Vec<EventRecord>", &events_bytes)?;
    assert_eq!(
        registry.decode_storage("System", "Events", &events_bytes)?,
        dynamic
    );
    println!(
        "System.Events by name and by type string: {} records",
        events.len()
    );
    // A storage key (typed and dynamic agree) and its parts read back.
    let key = registry.storage_key("System", "Account", &[Value::Str(payer.as_str().into())])?;
    assert_eq!(
        key,
        polkadot::pallets::system::storage::account(&payer.parse()?)
    );
    let parts = registry.decode_storage_key("System", "Account", &key)?;
    let typed = polkadot::pallets::system::storage::account_decode_key(&key)?;
    assert_eq!(typed.to_ss58(0)?, payer);
    println!(
        "System.Account key of {:?}",
        parts[0].value.as_ref().and_then(Value::as_str)
    );
    Ok(())
}
