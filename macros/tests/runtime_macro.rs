//! The attribute macro in use: it expands to compiling types that decode real
//! data exactly as the xtask-generated types do.

use ferroscale_runtime_types::polkadot as generated;
use parity_scale_codec::Encode;

#[ferroscale_macros::runtime(
    fixture = "metadata/polkadot-v15-spec1001002.scale",
    crate = "::ferroscale_runtime_types"
)]
pub mod polkadot {}

fn constant(pallet: &str, name: &str) -> Vec<u8> {
    let bytes = ferroscale_fixtures::read("metadata/polkadot-v15-spec1001002.scale");
    let input = ferroscale_codegen::input::load(&bytes).unwrap();
    let p = input.pallets.iter().find(|p| p.name == pallet).unwrap();
    p.constants.iter().find(|c| c.0 == name).unwrap().2.clone()
}

/// Decodes with the macro's type and the generated crate's type; both must
/// agree on the value (as printed) and re-encode to the input.
macro_rules! same {
    ($($path:ident)::+, $bytes:expr) => {{
        let bytes = $bytes;
        let a: polkadot::$($path)::+ = ferroscale_runtime_types::decode_all(&bytes).unwrap();
        let b: generated::$($path)::+ = ferroscale_runtime_types::decode_all(&bytes).unwrap();
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert_eq!(a.encode(), bytes);
    }};
}

#[test]
fn macro_types_decode_real_constants_like_the_generated_crate() {
    same!(
        runtime_types::frame_system::limits::BlockWeights,
        constant("System", "BlockWeights")
    );
    same!(
        runtime_types::sp_version::RuntimeVersion,
        constant("System", "Version")
    );
    same!(
        runtime_types::frame_system::limits::BlockLength,
        constant("System", "BlockLength")
    );
}

#[test]
fn macro_calls_encode_like_the_generated_crate() {
    use polkadot::runtime_types::pallet_balances::pallet::Call;
    let call = polkadot::RuntimeCall::Balances(Call::transfer_keep_alive {
        dest: ferroscale_runtime_types::MultiAddress::Id([1u8; 32].into()),
        value: 12_345,
    });
    same!(RuntimeCall, call.encode());
}
