//! Hostile nesting that both decoders' tests feed them: calls inside calls,
//! a few bytes per level, so that a short input reaches any depth.

/// `levels` calls of `Utility.batch` each holding only the next, around an
/// empty `System.remark`: `batch` and `remark` are the pallet and call
/// indices of those two calls in the runtime under test.
pub fn nested_batch_calls(batch: [u8; 2], remark: [u8; 2], levels: usize) -> Vec<u8> {
    // per level: the call index, then the vector's compact length 1 (`4`)
    let mut bytes = [batch[0], batch[1], 4].repeat(levels);
    bytes.extend(remark);
    bytes.push(0); // the remark's empty byte vector
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_wrap_the_remark() {
        assert_eq!(nested_batch_calls([26, 0], [0, 7], 0), [0, 7, 0]);
        assert_eq!(
            nested_batch_calls([26, 0], [0, 7], 2),
            [26, 0, 4, 26, 0, 4, 0, 7, 0]
        );
    }
}
