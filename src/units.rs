//! Amounts in base units (sun, USDT's 6 decimals) shown as decimals, without floating point.

/// Sun as TRX: `1500000` → `"1.5"`.
pub(crate) fn trx_text(sun: i64) -> String {
    format_units(sun.into(), 6)
}

/// `1500000` with 6 decimals → `"1.5"`.
pub(crate) fn format_units(value: i128, decimals: u32) -> String {
    let scale = 10i128.pow(decimals);
    let sign = if value < 0 { "-" } else { "" };
    let abs = value.unsigned_abs();
    let whole = abs / scale as u128;
    let frac = abs % scale as u128;
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let frac = format!("{frac:0width$}", width = decimals as usize);
    format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
}

/// Sun as TRX.
pub(crate) fn format_trx(sun: i64) -> String {
    format!("{} TRX", format_units(sun.into(), 6))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_exactly() {
        assert_eq!(format_units(1_500_000, 6), "1.5");
        assert_eq!(format_units(0, 6), "0");
        assert_eq!(format_units(1, 6), "0.000001");
        assert_eq!(format_units(-2_000_001, 6), "-2.000001");
        assert_eq!(format_trx(100_000_000), "100 TRX");
        assert_eq!(format_units(i64::MAX.into(), 6), "9223372036854.775807");
    }
}
