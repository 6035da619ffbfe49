//! Gathering and scattering bits under a mask: BMI2's `pext` and `pdep` where the build has
//! them (x86-64-v3, see `.cargo/config.toml`), a loop elsewhere. The pattern evaluation reads
//! its blocks with [`extract`]; the endgame database index ranks and places kings among the
//! free squares with both.

/// The bits of `bits` under `mask`, packed to the low end in order (`pext`).
#[inline(always)]
pub fn extract(bits: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2 (checked by the `cfg`), so the instruction exists.
        unsafe { std::arch::x86_64::_pext_u64(bits, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        extract_by_loop(bits, mask)
    }
}

/// The inverse of [`extract`]: the low bits of `packed` spread onto the members of `mask`, in
/// order (`pdep`).
#[inline(always)]
pub fn deposit(packed: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2 (checked by the `cfg`), so the instruction exists.
        unsafe { std::arch::x86_64::_pdep_u64(packed, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        deposit_by_loop(packed, mask)
    }
}

/// [`extract`] one mask bit at a time.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
#[inline(always)]
fn extract_by_loop(bits: u64, mask: u64) -> u64 {
    let mut packed = 0;
    let mut out = 0;
    let mut rest = mask;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if bits & low != 0 {
            packed |= 1 << out;
        }
        out += 1;
        rest &= rest - 1;
    }
    packed
}

/// [`deposit`] one mask bit at a time.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
#[inline(always)]
fn deposit_by_loop(packed: u64, mask: u64) -> u64 {
    let mut out = 0;
    let mut rest = mask;
    let mut bits = packed;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if bits & 1 != 0 {
            out |= low;
        }
        bits >>= 1;
        rest &= rest - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_and_loops_agree() {
        let masks = [0, 1, 0x8000_0000_0000_0001, 0x00F0_0F0F_3C3C_5A5A, u64::MAX];
        let mut bits = crate::core::mix::GOLDEN_GAMMA;
        for _ in 0..1000 {
            bits = bits.rotate_left(7).wrapping_mul(0x2545_F491_4F6C_DD1D);
            for &mask in &masks {
                let packed = extract(bits, mask);
                assert_eq!(packed, extract_by_loop(bits, mask));
                assert_eq!(deposit(packed, mask), bits & mask);
                assert_eq!(deposit(bits, mask), deposit_by_loop(bits, mask));
            }
        }
        assert_eq!(extract(0b1010, 0b1110), 0b101);
        assert_eq!(deposit(0b101, 0b1110), 0b1010);
    }
}
