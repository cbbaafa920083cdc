//! Generates the sliding-piece attack tables at build time, so that start-up
//! costs nothing: for every square the relevant-occupancy mask, a magic
//! multiplier (found here by a seeded search) and the attack sets indexed two
//! ways, by magic multiplication and by PEXT. Both layouts share offsets.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i8, r: i8) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

/// Attacks from `sq` along `dirs`, stopping at (and including) the first blocker.
fn slide(sq: u8, occ: u64, dirs: [(i8, i8); 4]) -> u64 {
    let mut att = 0u64;
    for (df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while on_board(f, r) {
            let b = 1u64 << (r * 8 + f);
            att |= b;
            if occ & b != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

/// Squares whose occupancy matters: the rays without their last square.
fn relevant_mask(sq: u8, dirs: [(i8, i8); 4]) -> u64 {
    let mut m = 0u64;
    for (df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
        while on_board(f + df, r + dr) {
            m |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    m
}

fn pext_soft(x: u64, mut mask: u64) -> u64 {
    let mut res = 0u64;
    let mut bit = 1u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            res |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    res
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn build(
    dirs: [(i8, i8); 4],
    rng: &mut Rng,
    magic_table: &mut Vec<u64>,
    pext_table: &mut Vec<u64>,
) -> Vec<Entry> {
    let mut entries = Vec::new();
    for sq in 0..64u8 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let offset = magic_table.len();
        let mut occs = Vec::with_capacity(size);
        let mut atts = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            atts.push(slide(sq, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let mut pext = vec![0u64; size];
        for (o, a) in occs.iter().zip(&atts) {
            pext[pext_soft(*o, mask) as usize] = *a;
        }
        let shift = 64 - bits;
        let mut table = vec![0u64; size];
        let mut stamp = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for (o, a) in occs.iter().zip(&atts) {
                let idx = (o.wrapping_mul(magic) >> shift) as usize;
                if stamp[idx] != attempt {
                    stamp[idx] = attempt;
                    table[idx] = *a;
                } else if table[idx] != *a {
                    ok = false;
                    break;
                }
            }
            if ok {
                break magic;
            }
        };
        magic_table.extend_from_slice(&table);
        pext_table.extend_from_slice(&pext);
        entries.push(Entry {
            mask,
            magic,
            shift,
            offset,
        });
    }
    entries
}

fn write_entries(out: &mut String, name: &str, entries: &[Entry]) {
    writeln!(out, "pub(crate) static {name}: [SliderEntry; 64] = [").unwrap();
    for e in entries {
        writeln!(
            out,
            "    SliderEntry {{ mask: Bitboard({:#018x}), magic: {:#018x}, shift: {}, offset: {} }},",
            e.mask, e.magic, e.shift, e.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn write_table(out: &mut String, name: &str, table: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [u64; {}] = [", table.len()).unwrap();
    for chunk in table.chunks(8) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " {v:#x},").unwrap();
        }
        out.push('\n');
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut magic_table = Vec::new();
    let mut pext_table = Vec::new();
    let rook = build(ROOK_DIRS, &mut rng, &mut magic_table, &mut pext_table);
    let bishop = build(BISHOP_DIRS, &mut rng, &mut magic_table, &mut pext_table);

    let mut out = String::new();
    out.push_str("// Generated by build.rs: sliding-piece attack tables.\n");
    write_entries(&mut out, "ROOK", &rook);
    write_entries(&mut out, "BISHOP", &bishop);
    write_table(&mut out, "MAGIC_ATTACKS", &magic_table);
    write_table(&mut out, "PEXT_ATTACKS", &pext_table);
    let path = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("sliders.rs");
    fs::write(path, out).expect("write generated tables");
}
