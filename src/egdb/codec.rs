//! The value stream of a table file: one value per index, W/D/L as 0/1/2. Holes and capture
//! positions are "don't care" (never looked up: a probe resolves captures first) and take the
//! value of the position before them, which extends runs. Byte codes: 0-242 pack five values
//! base 3 (first value in the lowest digit); 243-245 are a run of value `code - 243` whose length
//! follows as a LEB128 number. Read whole into the 2-bit table ([`decode`]) or probed where it
//! lies ([`super::compact`], through [`step`]).

use super::table::{DRAW, LOSS, PER_WORD, UNKNOWN, WIN, WdlTable};

/// Values packed per byte code.
pub(super) const PACK: usize = 5;
/// Largest packed code (3^5 - 1).
pub(super) const PACK_MAX: u8 = 242;
/// First run code.
const RUN_BASE: u8 = 243;
/// Shortest run written as a run code (shorter ones are cheaper packed).
const MIN_RUN: usize = 8;
/// File values: win, draw, loss.
const FILE_VALUES: u8 = 3;

fn to_file_value(code: u8) -> u8 {
    match code {
        WIN => 0,
        DRAW => 1,
        _ => 2,
    }
}

fn from_file_value(value: u8) -> u8 {
    match value {
        0 => WIN,
        1 => DRAW,
        _ => LOSS,
    }
}

/// Encodes a table's values, `dont_care(index)` marking values free to choose.
pub fn encode(table: &WdlTable, captures: &[u64]) -> Vec<u8> {
    let size = table.layout().size() as usize;
    let dont_care =
        |i: usize| table.get(i as u64) == UNKNOWN || (captures[i / 64] >> (i % 64)) & 1 == 1;
    let first = (0..size)
        .find(|&i| !dont_care(i))
        .map_or(0, |i| to_file_value(table.get(i as u64)));
    let mut values = Vec::with_capacity(size);
    let mut last = first;
    for i in 0..size {
        if !dont_care(i) {
            last = to_file_value(table.get(i as u64));
        }
        values.push(last);
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < size {
        let run = values[i..].iter().take_while(|&&v| v == values[i]).count();
        if run >= MIN_RUN {
            out.push(RUN_BASE + values[i]);
            let mut length = run as u64;
            loop {
                let byte = (length & 0x7F) as u8;
                length >>= 7;
                if length == 0 {
                    out.push(byte);
                    break;
                }
                out.push(byte | 0x80);
            }
            i += run;
        } else {
            let mut code = 0u8;
            for k in (0..PACK).rev() {
                let value = values.get(i + k).copied().unwrap_or(values[size - 1]);
                code = code * FILE_VALUES + value;
            }
            out.push(code);
            i += PACK;
        }
    }
    out
}

/// One code of the value stream.
#[derive(Clone, Copy)]
pub(super) struct Step {
    /// The byte code: packed values (at most [`PACK_MAX`]) or a run's code.
    pub code: u8,
    /// Values the code stands for.
    pub length: u64,
    /// Offset of the next code.
    pub next: usize,
}

/// The code at byte `at` of a payload (`at` must be inside it).
#[inline(always)]
pub(super) fn step(payload: &[u8], at: usize) -> Result<Step, String> {
    let code = payload[at];
    if code <= PACK_MAX {
        return Ok(Step {
            code,
            length: PACK as u64,
            next: at + 1,
        });
    }
    if code >= RUN_BASE + FILE_VALUES {
        return Err(format!("bad byte code {code}"));
    }
    let mut length = 0u64;
    let mut shift = 0;
    let mut next = at + 1;
    loop {
        let &byte = payload.get(next).ok_or("run length cut short")?;
        next += 1;
        if shift > 56 {
            return Err("run length too long".into());
        }
        length |= u64::from(byte & 0x7F) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            break;
        }
    }
    if length == 0 {
        return Err("empty run".into());
    }
    Ok(Step { code, length, next })
}

/// Powers of three: the weight of each packed value's digit.
const DIGIT: [u8; PACK] = [1, 3, 9, 27, 81];

/// The table code of the value `offset` places into a code's values.
#[inline(always)]
pub(super) fn value_in(code: u8, offset: u64) -> u8 {
    if code <= PACK_MAX {
        from_file_value(code / DIGIT[offset as usize] % FILE_VALUES)
    } else {
        from_file_value(code - RUN_BASE)
    }
}

/// Walks a payload of `size` values code by code, `visit(first index, step)` for each, and
/// checks that the codes cover exactly the index.
pub(super) fn walk(
    payload: &[u8],
    size: u64,
    mut visit: impl FnMut(u64, usize, Step),
) -> Result<(), String> {
    let mut index = 0u64;
    let mut at = 0usize;
    while at < payload.len() {
        if index >= size {
            return Err("more values than the index has".into());
        }
        let step = step(payload, at)?;
        if step.code > PACK_MAX && index + step.length > size {
            return Err("run past the end of the index".into());
        }
        visit(index, at, step);
        index += step.length;
        at = step.next;
    }
    if index < size {
        return Err(format!("{index} values of {size}: file truncated"));
    }
    Ok(())
}

/// Decodes `size` values into packed 2-bit words.
pub(super) fn decode(payload: &[u8], size: u64) -> Result<Vec<u64>, String> {
    let mut words = vec![0u64; size.div_ceil(PER_WORD) as usize];
    walk(payload, size, |first, _, step| {
        for index in first..(first + step.length).min(size) {
            words[(index / PER_WORD) as usize] |=
                u64::from(value_in(step.code, index - first)) << (2 * (index % PER_WORD));
        }
    })?;
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egdb::index::Material;

    #[test]
    fn codec_round_trips_with_dont_cares() {
        let material = Material::new(0, 1, 0, 1);
        let table = WdlTable::new(material);
        let size = table.layout().size();
        let mut captures = vec![0u64; size.div_ceil(64) as usize];
        for i in 0..size {
            let code = match (i / 7) % 5 {
                0 | 1 => WIN,
                2 => DRAW,
                3 => LOSS,
                _ => [WIN, DRAW, LOSS][(i % 3) as usize],
            };
            table.set(i, code);
            if i % 11 == 0 {
                captures[(i / 64) as usize] |= 1 << (i % 64);
            }
        }
        let words = decode(&encode(&table, &captures), size).expect("decodes");
        let back = WdlTable::from_words(material, words);
        for i in 0..size {
            if (captures[(i / 64) as usize] >> (i % 64)) & 1 == 0 {
                assert_eq!(back.get(i), table.get(i), "index {i}");
            }
        }
        assert!(decode(&[RUN_BASE, 0x80], size).is_err());
        assert!(decode(&[0], size).is_err());
        assert!(decode(&[255], size).is_err());
    }
}
