//! Where fixed-size types keep their account ids (`account_layout`), what
//! batch decoders render ahead in groups.

use ferroscale_dynamic::registry::Registry;
use ferroscale_dynamic::{account_layout, AccountLayout};

/// The layout of ASI's `Uids` key tuple, checked against where its
/// account really is; varying types have none.
#[test]
fn layouts_of_fixed_size_types() {
    let mut reg = Registry::with_presets(&["core"]).unwrap();
    let ty = reg.resolve("([u8; 0], u16, [u8; 16], AccountId)").unwrap();
    let layout = account_layout(reg.graph(), ty).unwrap();
    assert_eq!(
        layout,
        AccountLayout {
            size: 2 + 16 + 32,
            offsets: vec![18]
        }
    );
    let ty = reg.resolve("[(u8, AccountId); 3]").unwrap();
    let layout = account_layout(reg.graph(), ty).unwrap();
    assert_eq!(layout.size, 99);
    assert_eq!(layout.offsets, vec![1, 34, 67]);
    for varying in [
        "Vec<AccountId>",
        "Option<AccountId>",
        "(Compact<u32>, AccountId)",
        "u32",
    ] {
        let ty = reg.resolve(varying).unwrap();
        assert_eq!(account_layout(reg.graph(), ty), None, "{varying}");
    }
    // Huge arrays of account-free items are sized, not walked item by item
    // (four billion steps each), and a size past usize is no layout.
    let ty = reg.resolve("([u32; 4294967295], AccountId)").unwrap();
    let layout = account_layout(reg.graph(), ty).unwrap();
    assert_eq!(layout.offsets, vec![4 * 4294967295]);
    let ty = reg
        .resolve("([[u8; 4294967295]; 4294967295], AccountId)")
        .unwrap();
    let layout = account_layout(reg.graph(), ty).unwrap();
    assert_eq!(layout.offsets, vec![4294967295 * 4294967295]);
    let ty = reg
        .resolve("([[[u8; 4294967295]; 4294967295]; 2], AccountId)")
        .unwrap();
    assert_eq!(account_layout(reg.graph(), ty), None);
}
