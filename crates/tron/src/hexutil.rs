//! Hex as TRON JSON writes it: lower case, no `0x`; read case-insensitively, `0x` allowed
//! (TronWeb writes signatures in upper case).

use crate::error::TxError;

/// Decodes hex, naming `field` in the error.
pub(crate) fn decode(field: &str, s: &str) -> Result<Vec<u8>, TxError> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    hex::decode(digits).map_err(|e| TxError::BadHex {
        field: field.to_owned(),
        reason: match e {
            hex::FromHexError::InvalidHexCharacter { c, index } => {
                format!("'{c}' at position {index} is not a hex digit")
            }
            hex::FromHexError::OddLength => "odd number of digits".to_owned(),
            other => other.to_string(),
        },
    })
}

/// Decodes exactly `N` bytes of hex.
pub(crate) fn decode_fixed<const N: usize>(field: &str, s: &str) -> Result<[u8; N], TxError> {
    let bytes = decode(field, s)?;
    let len = bytes.len();
    bytes.try_into().map_err(|_| TxError::BadHex {
        field: field.to_owned(),
        reason: format!("expected {N} bytes ({} digits), got {len} bytes", N * 2),
    })
}

/// Decodes text fields java-tron hex-encodes when `visible` is false (`Return.message`,
/// `resMessage`). Text that is not hex of valid UTF-8 is returned as it came.
pub fn decode_node_text(s: &str) -> String {
    let looks_hex =
        !s.is_empty() && s.len().is_multiple_of(2) && s.bytes().all(|b| b.is_ascii_hexdigit());
    if looks_hex
        && let Ok(bytes) = hex::decode(s)
        && let Ok(text) = String::from_utf8(bytes)
        && !text
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return text;
    }
    s.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_text_is_decoded_when_hex() {
        // "REVERT opcode executed"
        assert_eq!(
            decode_node_text("524556455254206f70636f6465206578656375746564"),
            "REVERT opcode executed"
        );
        assert_eq!(decode_node_text("Tapos check error."), "Tapos check error.");
        assert_eq!(decode_node_text(""), "");
        // Hex of binary data stays hex.
        assert_eq!(decode_node_text("00ff"), "00ff");
    }

    #[test]
    fn decode_names_the_field() {
        let err = decode("data", "0xzz").unwrap_err();
        assert_eq!(
            err.to_string(),
            "field `data` is not valid hex: 'z' at position 0 is not a hex digit"
        );
        assert!(decode_fixed::<2>("ref_block_bytes", "abcdef").is_err());
        assert_eq!(
            decode_fixed::<2>("ref_block_bytes", "ABCD").unwrap(),
            [0xab, 0xcd]
        );
    }
}
