//! Reference values from `tools/elo_reference.py`, which computes them independently: Python's
//! `statistics` (NormalDist, pvariance over the list of games) for the intervals and LOS, and a
//! general constrained optimiser (scipy SLSQP; for the trinomial case also a golden-section search)
//! for the SPRT's maximum-likelihood fits.

use super::*;

fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not within {tolerance} of {expected}"
    );
}

fn tally(wins: u64, draws: u64, losses: u64) -> Tally {
    Tally {
        wins,
        draws,
        losses,
    }
}

#[test]
fn elo_of_known_scores() {
    // 0.75 = 3:1 odds = 400 log10(3) Elo.
    close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9);
    close(elo_from_score(0.75), 190.848_501_887_865, 1e-9);
    assert_eq!(elo_from_score(0.5).to_string(), "0");
    close(elo_from_score(0.1), -381.697_003_775_73, 1e-6);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    for elo in [-400.0, -35.5, 0.0, 12.0, 800.0] {
        close(elo_from_score(score_from_elo(elo)), elo, 1e-9);
    }
}

#[test]
fn trinomial_interval() {
    let estimate = elo_trinomial(&tally(60, 20, 20)).expect("games");
    close(estimate.elo, 147.190_714_117_837_76, 1e-9);
    close(estimate.lower, 86.225_015_200_304_23, 1e-9);
    close(estimate.upper, 218.251_777_641_074_8, 1e-9);
    let estimate = elo_trinomial(&tally(11353, 20821, 11042)).expect("games");
    close(estimate.elo, 2.500_331_646_611_757, 1e-9);
    close(estimate.lower, 0.142_354_442_337_170_93, 1e-9);
    close(estimate.upper, 4.858_539_207_039_702, 1e-9);
    assert_eq!(elo_trinomial(&Tally::default()), None);
    let all_won = elo_trinomial(&tally(3, 0, 0)).expect("games");
    assert_eq!(all_won.elo, f64::INFINITY);
}

#[test]
fn pentanomial_interval() {
    let pairs = Pentanomial {
        counts: [10, 40, 100, 60, 20],
    };
    let estimate = elo_pentanomial(&pairs).expect("pairs");
    close(estimate.elo, 30.288_285_575_247_322, 1e-9);
    close(estimate.lower, 8.606_340_567_092_879, 1e-9);
    close(estimate.upper, 52.208_445_922_668_84, 1e-9);
    let pairs = Pentanomial {
        counts: [212, 2760, 5420, 2964, 252],
    };
    let estimate = elo_pentanomial(&pairs).expect("pairs");
    close(estimate.elo, 4.250_371_667_639_446, 1e-9);
    close(estimate.lower, 1.697_645_507_016_703, 1e-9);
    close(estimate.upper, 6.803_556_794_768_601, 1e-9);
}

#[test]
fn normalized_elo() {
    // By hand: mean 0.5625 and variance 0.05 of the pair scores; (mean - 0.5) / sqrt(2 x 0.05)
    // x 800 / ln 10.
    let pairs = Pentanomial {
        counts: [10, 40, 100, 60, 20],
    };
    let estimate = normalized_elo_pentanomial(&pairs).expect("pairs");
    close(estimate.elo, 44.393_690_687_484_465, 1e-9);
    close(estimate.lower, 12.643_709_414_307_372, 1e-9);
    close(estimate.upper, 76.143_671_960_661_55, 1e-9);
    // Every pair drawn: no variance, no normalized Elo.
    let drawn = Pentanomial {
        counts: [0, 0, 5, 0, 0],
    };
    assert_eq!(normalized_elo_pentanomial(&drawn), None);
}

#[test]
fn likelihood_of_superiority() {
    close(
        los(&tally(60, 20, 20)).expect("decisive"),
        0.999_996_127_891_784_5,
        1e-7,
    );
    close(
        los(&tally(11353, 20821, 11042)).expect("decisive"),
        0.981_153_981_581_219_1,
        1e-7,
    );
    close(
        los(&tally(3, 0, 0)).expect("decisive"),
        0.958_367_741_668_224_8,
        1e-7,
    );
    close(los(&tally(5, 9, 5)).expect("decisive"), 0.5, 1e-7);
    assert_eq!(los(&tally(0, 7, 0)), None);
}

#[test]
fn normal_cdf_accuracy() {
    close(normal_cdf(0.0), 0.5, 1e-7);
    close(normal_cdf(Z_95), 0.975, 1e-7);
    close(normal_cdf(-Z_95), 0.025, 1e-7);
    close(normal_cdf(3.0), 0.998_650_101_968_369_9, 1e-7);
}

fn sprt(elo0: f64, elo1: f64) -> Sprt {
    Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    }
}

#[test]
fn sprt_log_likelihood_ratio() {
    close(
        sprt(0.0, 5.0).llr_trinomial(&tally(11353, 20821, 11042)),
        0.001_284_241_05,
        1e-8,
    );
    close(
        sprt(0.0, 10.0).llr_trinomial(&tally(60, 20, 20)),
        1.389_827_554_232_89,
        1e-8,
    );
    close(
        sprt(-3.0, 1.0).llr_trinomial(&tally(400, 1000, 450)),
        -1.119_615_248_026_4,
        1e-8,
    );
    close(
        sprt(0.0, 5.0).llr_pentanomial(&Pentanomial {
            counts: [212, 2760, 5420, 2964, 252],
        }),
        5.157_421_352_652_818,
        1e-6,
    );
    close(
        sprt(0.0, 10.0).llr_pentanomial(&Pentanomial {
            counts: [10, 40, 100, 60, 20],
        }),
        2.016_446_020_653_973,
        1e-6,
    );
    assert_eq!(sprt(0.0, 5.0).llr_trinomial(&Tally::default()), 0.0);
}

#[test]
fn sprt_bounds_and_decisions() {
    let test = sprt(0.0, 5.0);
    let (lower, upper) = test.bounds();
    close(lower, -2.944_438_979_166_440_3, 1e-12);
    close(upper, 2.944_438_979_166_440_3, 1e-12);
    assert_eq!(test.decide(0.0), None);
    assert_eq!(test.decide(3.0), Some(SprtDecision::H1));
    assert_eq!(test.decide(-3.0), Some(SprtDecision::H0));
    // Only wins: the fit must stay finite and favour H1.
    let llr = sprt(0.0, 50.0).llr_trinomial(&tally(40, 0, 0));
    assert!(llr.is_finite() && llr > 0.0, "{llr}");
    let llr = sprt(0.0, 50.0).llr_trinomial(&tally(0, 0, 40));
    assert!(llr.is_finite() && llr < 0.0, "{llr}");
}

#[test]
fn sprt_arguments() {
    let words = |text: &str| {
        text.split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let parsed = Sprt::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.1")).expect("valid");
    assert_eq!(parsed.elo1, 5.0);
    assert_eq!(parsed.beta, 0.1);
    assert_eq!(
        Sprt::parse(&words("elo0=-1 elo1=3")).expect("valid").alpha,
        0.05
    );
    for bad in [
        "elo0=0",
        "elo0=5 elo1=0",
        "elo0=0 elo1=5 alpha=0",
        "elo0=0 elo1=5 beta=0.7",
        "elo0=x elo1=5",
        "elo0=0 elo1=5 gamma=1",
        "elo0",
    ] {
        assert!(Sprt::parse(&words(bad)).is_err(), "{bad}");
    }
}

#[test]
fn tallies() {
    let mut counted = Tally::default();
    for half_points in [2, 2, 1, 0] {
        counted.add(half_points);
    }
    assert_eq!(counted, tally(2, 1, 1));
    assert_eq!(counted.points(), 2.5);
    assert_eq!(counted.score(), Some(0.625));
    assert_eq!(counted.draw_rate(), Some(0.25));
    assert_eq!(counted.reversed(), tally(1, 1, 2));
    let mut pairs = Pentanomial::default();
    pairs.add(4);
    pairs.add(2);
    assert_eq!(pairs.counts, [0, 0, 1, 0, 1]);
    assert_eq!(pairs.pairs(), 2);
}
