//! Which games a match or tournament plays, in which order.
//!
//! Every pair of engines plays every opening twice, colours reversed; the two games of an opening
//! are consecutive (a *pair*, the unit of the pentanomial statistics). Openings are the outer loop
//! and engine pairs the inner one, so that a tournament stopped early has played all pairings
//! about equally. `rounds` repeats the whole schedule.

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Game number, from 1 (the PDN `Round` tag).
    pub number: usize,
    /// Engine with White.
    pub white: usize,
    /// Engine with Black.
    pub black: usize,
    /// Index of the opening in the set.
    pub opening: usize,
    /// Index of the pair (the two games of one opening between two engines).
    pub pair: usize,
}

/// The games of a round robin between `engines` engines (a match when there are two).
pub fn round_robin(engines: usize, openings: usize, rounds: usize) -> Vec<Pairing> {
    let mut games = Vec::new();
    let mut pair = 0;
    for _round in 0..rounds {
        for opening in 0..openings {
            for first in 0..engines {
                for second in first + 1..engines {
                    for (white, black) in [(first, second), (second, first)] {
                        games.push(Pairing {
                            number: games.len() + 1,
                            white,
                            black,
                            opening,
                            pair,
                        });
                    }
                    pair += 1;
                }
            }
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_plays_each_opening_with_both_colours() {
        let games = round_robin(2, 79, 1);
        assert_eq!(games.len(), 158);
        assert_eq!(
            games[0],
            Pairing {
                number: 1,
                white: 0,
                black: 1,
                opening: 0,
                pair: 0
            }
        );
        assert_eq!(
            games[1],
            Pairing {
                number: 2,
                white: 1,
                black: 0,
                opening: 0,
                pair: 0
            }
        );
        assert_eq!(games[157].opening, 78);
        assert_eq!(games[157].pair, 78);
    }

    #[test]
    fn round_robin_counts() {
        let games = round_robin(4, 3, 2);
        // 6 engine pairs x 3 openings x 2 colours x 2 rounds.
        assert_eq!(games.len(), 72);
        for engine in 0..4 {
            let white = games.iter().filter(|g| g.white == engine).count();
            let black = games.iter().filter(|g| g.black == engine).count();
            assert_eq!((white, black), (18, 18));
        }
        assert!(games.iter().all(|g| g.white != g.black));
        assert_eq!(games.last().map(|g| g.pair), Some(35));
    }
}
