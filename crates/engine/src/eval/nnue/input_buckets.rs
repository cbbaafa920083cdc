//! King input buckets and horizontal mirroring: which of the feature
//! layer's weight sets a perspective uses, chosen by where its own king
//! stands.
//!
//! With mirroring, a perspective whose king stands on files a-d sees the
//! board flipped left to right (files a and h swapped), so that its king is
//! always on files e-h: one set of weights serves both wings (chess is
//! symmetric that way apart from castling rights, which the inputs do not
//! carry), and the weights learn king-relative patterns twice as fast. The
//! king's square as the perspective then sees it picks one of the layout's
//! buckets, each a full set of 768 rows, so that a piece's weight can depend
//! on where the king it attacks or shields stands (what every strong NNUE
//! engine's first layer does). A move of a king that changes its bucket or
//! its wing refreshes that perspective's accumulator.
//!
//! A layout with one bucket and no mirroring is the plain 768-input network
//! of format versions 1 and 2.

use std::fmt;

use chess::{Color, Piece, Square};

/// The most king buckets a layout may have.
pub const MAX_INPUT_BUCKETS: usize = 16;

/// A king-bucket layout: a bucket for each square of the perspective's own
/// king (seen from that perspective, after mirroring) and whether to mirror.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InputBuckets {
    /// The bucket of each king square (a1 = 0 ... h8 = 63) as the
    /// perspective sees it; with mirroring only files e-h are looked up.
    map: [u8; 64],
    /// Buckets in all (1 to `MAX_INPUT_BUCKETS`).
    count: u8,
    /// Whether a king on files a-d flips the board left to right.
    mirror: bool,
}

/// Why a king-bucket layout was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputBucketsError {
    /// A bucket count of 0 or above `MAX_INPUT_BUCKETS`.
    BadCount(u32),
    /// A square's bucket is not below the count.
    BucketOutOfRange {
        /// The king square (0 = a1).
        square: usize,
        /// Its bucket.
        bucket: u8,
        /// Buckets in all.
        count: u8,
    },
    /// A bucket no king square uses: its weights could never train.
    UnusedBucket(u8),
    /// A layout name this build does not know.
    UnknownName(String),
}

impl fmt::Display for InputBucketsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputBucketsError::BadCount(n) => {
                write!(f, "{n} king buckets: must be 1 to {MAX_INPUT_BUCKETS}")
            }
            InputBucketsError::BucketOutOfRange {
                square,
                bucket,
                count,
            } => write!(
                f,
                "king square {} has bucket {bucket}, but there are only {count}",
                Square::new(*square as u8)
            ),
            InputBucketsError::UnusedBucket(b) => {
                write!(f, "king bucket {b} is used by no square")
            }
            InputBucketsError::UnknownName(name) => write!(
                f,
                "unknown king-bucket layout {name:?}; one of: {}",
                InputBuckets::NAMES.join(", ")
            ),
        }
    }
}

impl std::error::Error for InputBucketsError {}

/// Inputs per perspective and king bucket: 2 colours x 6 roles x 64 squares
/// (the layout [`KingView::feature`] numbers; `features.rs` says why).
pub const INPUTS: usize = 768;

/// One perspective's choice of weights: the first row of its bucket and
/// the file flip (0, or 7 when mirrored) applied to every square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingView {
    offset: u32,
    flip: u8,
}

impl KingView {
    /// The view of a net with one bucket and no mirroring.
    pub const PLAIN: KingView = KingView { offset: 0, flip: 0 };

    /// The input index of `piece` on `sq` from `perspective`'s side: its
    /// bucket's rows, own pieces first (0..384 within the bucket), the
    /// board flipped vertically for Black and left to right when mirrored.
    #[inline(always)]
    pub fn feature(self, perspective: Color, piece: Piece, sq: Square) -> usize {
        let theirs = if piece.color == perspective { 0 } else { 384 };
        self.offset as usize
            + theirs
            + piece.role.index() * 64
            + (sq.relative(perspective).index() ^ self.flip as usize)
    }

    /// The bucket (0 = the first).
    pub fn bucket(self) -> usize {
        self.offset as usize / INPUTS
    }

    /// Whether the board is seen flipped left to right.
    pub fn mirrored(self) -> bool {
        self.flip != 0
    }
}

/// Square index `sq` with its file flipped (a and h swapped).
const fn mirror_square(sq: usize) -> usize {
    sq ^ 7
}

impl InputBuckets {
    /// One bucket, no mirroring: the plain network.
    pub const NONE: InputBuckets = InputBuckets {
        map: [0; 64],
        count: 1,
        mirror: false,
    };

    /// One bucket, mirrored: the king always on files e-h.
    pub const MIRROR: InputBuckets = InputBuckets {
        map: [0; 64],
        count: 1,
        mirror: true,
    };

    /// Mirrored, four buckets: a king castled short (first rank, files g-h
    /// after mirroring), one on the first rank's centre (e-f), one on the
    /// second rank, and one anywhere further up.
    pub const MIRROR4: InputBuckets = InputBuckets {
        map: layout_by_rank([
            [1, 1, 0, 0],
            [2; 4],
            [3; 4],
            [3; 4],
            [3; 4],
            [3; 4],
            [3; 4],
            [3; 4],
        ]),
        count: 4,
        mirror: true,
    };

    /// The names `kestrel train --input-buckets` takes, in the order of
    /// [`InputBuckets::named`].
    pub const NAMES: [&'static str; 3] = ["none", "mirror", "mirror4"];

    /// A named layout (`none`, `mirror`, `mirror4`).
    pub fn named(name: &str) -> Result<InputBuckets, InputBucketsError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(InputBuckets::NONE),
            "mirror" => Ok(InputBuckets::MIRROR),
            "mirror4" => Ok(InputBuckets::MIRROR4),
            _ => Err(InputBucketsError::UnknownName(name.to_string())),
        }
    }

    /// The layout's name if it is a named one.
    pub fn name(&self) -> Option<&'static str> {
        InputBuckets::NAMES
            .into_iter()
            .find(|n| InputBuckets::named(n).as_ref() == Ok(self))
    }

    /// A layout from a file's fields: the bucket of each king square and
    /// whether to mirror. With mirroring, the squares of files a-d are
    /// never looked up and are stored as their mirror images' buckets.
    pub fn new(map: [u8; 64], mirror: bool) -> Result<InputBuckets, InputBucketsError> {
        let looked_up = |sq: usize| !mirror || sq % 8 >= 4;
        let count = map
            .iter()
            .enumerate()
            .filter(|&(sq, _)| looked_up(sq))
            .map(|(_, &b)| u32::from(b) + 1)
            .max()
            .unwrap_or(1);
        if count as usize > MAX_INPUT_BUCKETS {
            return Err(InputBucketsError::BadCount(count));
        }
        let count = count as u8;
        let mut canonical = map;
        for (sq, bucket) in canonical.iter_mut().enumerate() {
            if !looked_up(sq) {
                *bucket = map[mirror_square(sq)];
            }
        }
        for b in 0..count {
            if !canonical.contains(&b) {
                return Err(InputBucketsError::UnusedBucket(b));
            }
        }
        Ok(InputBuckets {
            map: canonical,
            count,
            mirror,
        })
    }

    /// Buckets in all.
    #[inline(always)]
    pub fn count(&self) -> usize {
        self.count as usize
    }

    /// Whether a king on files a-d flips the board.
    pub fn mirrors(&self) -> bool {
        self.mirror
    }

    /// The bucket of each king square (as a file stores it).
    pub fn map(&self) -> &[u8; 64] {
        &self.map
    }

    /// Whether this is the plain layout (one bucket, no mirroring).
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        // One bucket makes every map entry 0: the count and flag decide.
        self.count == 1 && !self.mirror
    }

    /// The inputs per perspective: 768 per bucket.
    pub fn inputs(&self) -> usize {
        INPUTS * self.count()
    }

    /// `perspective`'s view when its own king stands on `king`.
    #[inline(always)]
    pub fn view(&self, perspective: Color, king: Square) -> KingView {
        let mut sq = king.relative(perspective).index();
        let flip = if self.mirror && sq % 8 < 4 { 7 } else { 0 };
        sq ^= flip;
        KingView {
            offset: (usize::from(self.map[sq]) * INPUTS) as u32,
            flip: flip as u8,
        }
    }
}

/// Its name (`mirror4`), or for a layout without one its bucket count and
/// mirroring (`6 king buckets, mirrored`).
impl fmt::Display for InputBuckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => write!(
                f,
                "{} king buckets{}",
                self.count,
                if self.mirror { ", mirrored" } else { "" }
            ),
        }
    }
}

/// A 64-square map from eight ranks (rank 1 first) of the four files e-h,
/// files a-d their mirror images.
const fn layout_by_rank(ranks: [[u8; 4]; 8]) -> [u8; 64] {
    let mut map = [0u8; 64];
    let mut rank = 0;
    while rank < 8 {
        let mut f = 0;
        while f < 4 {
            map[rank * 8 + 4 + f] = ranks[rank][f];
            map[rank * 8 + 3 - f] = ranks[rank][f];
            f += 1;
        }
        rank += 1;
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess::Role;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn the_plain_layout_is_the_plain_feature_index() {
        let piece = Piece::new(Color::Black, Role::Knight);
        for perspective in Color::ALL {
            for king in Square::ALL {
                let view = InputBuckets::NONE.view(perspective, king);
                assert_eq!(view, KingView::PLAIN);
                assert_eq!(
                    view.feature(perspective, piece, sq("c6")),
                    super::super::feature_index(perspective, piece, sq("c6"))
                );
            }
        }
    }

    #[test]
    fn mirroring_puts_the_king_on_files_e_to_h() {
        let l = InputBuckets::MIRROR4;
        // White's king on g1: castled short, bucket 0, not flipped.
        let v = l.view(Color::White, sq("g1"));
        assert_eq!((v.bucket(), v.mirrored()), (0, false));
        // On b1 (castled long) it is seen on g1: the same bucket, flipped.
        let v = l.view(Color::White, sq("b1"));
        assert_eq!((v.bucket(), v.mirrored()), (0, true));
        // Black's king on g8 is its own first rank.
        assert_eq!(l.view(Color::Black, sq("g8")).bucket(), 0);
        assert_eq!(l.view(Color::Black, sq("e8")).bucket(), 1);
        assert_eq!(l.view(Color::Black, sq("d7")).bucket(), 2);
        assert_eq!(l.view(Color::White, sq("e4")).bucket(), 3);
        // A flipped view maps a piece on c3 to f3's input.
        let knight = Piece::new(Color::White, Role::Knight);
        let flipped = l.view(Color::White, sq("b1"));
        let straight = l.view(Color::White, sq("g1"));
        assert_eq!(
            flipped.feature(Color::White, knight, sq("c3")),
            straight.feature(Color::White, knight, sq("f3"))
        );
    }

    #[test]
    fn each_bucket_has_its_own_rows_and_every_input_is_reached_once() {
        let l = InputBuckets::MIRROR4;
        for perspective in Color::ALL {
            let mut seen = vec![false; l.inputs()];
            for king in Square::ALL {
                let view = l.view(perspective, king);
                if view.mirrored() {
                    continue; // the same rows as the unflipped twin
                }
                for color in Color::ALL {
                    for role in Role::ALL {
                        for s in Square::ALL {
                            seen[view.feature(perspective, Piece::new(color, role), s)] = true;
                        }
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "every row of every bucket is used");
        }
    }

    #[test]
    fn named_layouts_round_trip_through_their_map() {
        for name in InputBuckets::NAMES {
            let l = InputBuckets::named(name).unwrap();
            assert_eq!(l.name(), Some(name));
            assert_eq!(InputBuckets::new(*l.map(), l.mirrors()), Ok(l));
        }
        assert_eq!(InputBuckets::MIRROR4.count(), 4);
        assert_eq!(InputBuckets::MIRROR4.to_string(), "mirror4");
        let mut map = [0u8; 64];
        map[60] = 1;
        assert_eq!(
            InputBuckets::new(map, true).unwrap().to_string(),
            "2 king buckets, mirrored"
        );
        assert!(matches!(
            InputBuckets::named("eight"),
            Err(InputBucketsError::UnknownName(_))
        ));
    }

    #[test]
    fn bad_maps_are_refused() {
        let mut map = [0u8; 64];
        map[10] = 16;
        assert_eq!(
            InputBuckets::new(map, false),
            Err(InputBucketsError::BadCount(17))
        );
        map[10] = 2; // bucket 1 unused
        assert_eq!(
            InputBuckets::new(map, false),
            Err(InputBucketsError::UnusedBucket(1))
        );
        // Mirrored: file b is never looked up, so its bucket does not count.
        let mut map = [0u8; 64];
        map[1] = 5;
        assert_eq!(InputBuckets::new(map, true), Ok(InputBuckets::MIRROR));
    }
}
