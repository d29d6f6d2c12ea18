//! The Elo difference of a match result and its 95% error bar, by the logistic formula
//! cutechess-cli prints: the score fraction `mu = (W + D/2) / N`, the difference
//! `-400 log10(1/mu - 1)`, and the error bar from the per-game standard deviation of the
//! score (`sqrt(sum_r p_r (r - mu)^2 / N)` over the results r = 1, 1/2, 0 with their
//! frequencies), half the width of the difference over `mu +/- 1.96 sd`. Where every game
//! had the same result, 0.5 a game stands in for the sample's spread of 0
//! ([`Tally::score_interval`]), so one or two won games do not claim a certain +inf.

/// Wins, draws and losses of one side of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The 97.5% quantile of the standard normal distribution.
const Z975: f64 = 1.959_963_984_540_054;

/// The Elo difference of a score fraction `p` (0 < p < 1): `-400 log10(1/p - 1)`.
///
/// # Examples
///
/// ```
/// use giuthi::anytime::elo::elo_of_score;
/// assert_eq!(elo_of_score(0.5), 0.0);
/// assert!((elo_of_score(0.75) - 190.848).abs() < 0.001);
/// ```
pub fn elo_of_score(p: f64) -> f64 {
    // `+ 0.0` turns the -0.0 of an even score into 0.0 (printed `+0.0`, not `-0.0`).
    -400.0 * (1.0 / p - 1.0).log10() + 0.0
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction `(W + D/2) / N` (`None` before any game).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// The Elo difference, `None` before any game; infinite for a score of 0 or 1.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// The 95% confidence interval of the score fraction, `mu +/- 1.96 sd` within
    /// `[0, 1]`, where `sd` is the standard deviation of the mean score (`None` before any
    /// game). When every game had the same result (a sweep, or all draws) the sample has
    /// no spread and its own `sd` (0) would claim certainty after one game: the largest
    /// spread a score in `[0, 1]` can have, 0.5 a game, stands in for it.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::anytime::elo::Tally;
    /// // Five games, all won: mu = 1, sd = 0.5 / sqrt(5), so the score is at least 0.562.
    /// let (lo, hi) = Tally { wins: 5, draws: 0, losses: 0 }.score_interval().unwrap();
    /// assert!((lo - 0.5617).abs() < 1e-4 && hi == 1.0);
    /// ```
    pub fn score_interval(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let mu = self.score()?;
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let var = w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2);
        let per_game = if var > 0.0 { var.sqrt() } else { 0.5 };
        let sd = per_game / n.sqrt();
        Some(((mu - Z975 * sd).max(0.0), (mu + Z975 * sd).min(1.0)))
    }

    /// Half the width of the 95% confidence interval of the Elo difference (cutechess's
    /// "+/-"): `(elo(mu + 1.96 sd) - elo(mu - 1.96 sd)) / 2`. `None` when that interval
    /// of the score reaches 0 or 1 (a clean sweep, or nearly), where the logistic formula
    /// has no finite bound.
    ///
    /// # Examples
    ///
    /// ```
    /// use giuthi::anytime::elo::Tally;
    /// // 30 wins, 10 draws, 10 losses: mu = 0.7, sd = 0.0566, Elo +147.2 +/- 95.1.
    /// let t = Tally { wins: 30, draws: 10, losses: 10 };
    /// assert!((t.elo().unwrap() - 147.19).abs() < 0.01);
    /// assert!((t.error_margin().unwrap() - 95.1).abs() < 0.1);
    /// ```
    pub fn error_margin(&self) -> Option<f64> {
        let (lo, hi) = self.score_interval()?;
        if lo <= 0.0 || hi >= 1.0 {
            return None;
        }
        Some((elo_of_score(hi) - elo_of_score(lo)) / 2.0)
    }

    /// The Elo line: `Elo difference: +147.2 +/- 95.1`; where the score's interval reaches
    /// 0 or 1, the finite end of the Elo interval instead (`+381.7, 95% interval +219.9 to
    /// +inf`).
    pub fn elo_line(&self) -> String {
        let (Some(e), Some((lo, hi))) = (self.elo(), self.score_interval()) else {
            return "Elo difference: none (no game played)".to_string();
        };
        let fmt = |x: f64| {
            if x >= 1.0 {
                "+inf".to_string()
            } else if x <= 0.0 {
                "-inf".to_string()
            } else {
                format!("{:+.1}", elo_of_score(x))
            }
        };
        match self.error_margin() {
            Some(m) => format!("Elo difference: {e:+.1} +/- {m:.1}"),
            None if e.is_infinite() => format!(
                "Elo difference: {} (every game {}), 95% interval {} to {}",
                fmt(self.score().unwrap_or(0.5)),
                if e > 0.0 { "won" } else { "lost" },
                fmt(lo),
                fmt(hi)
            ),
            None => format!(
                "Elo difference: {e:+.1}, 95% interval {} to {}",
                fmt(lo),
                fmt(hi)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo_and_symmetric() {
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert_eq!(t.elo(), Some(0.0));
        // Not -0.0 (the session-10 trial's `Elo difference: -0.0`).
        assert!(t.elo().unwrap().is_sign_positive());
        assert!(
            t.elo_line().starts_with("Elo difference: +0.0 +/- "),
            "{}",
            t.elo_line()
        );
        let m = t.error_margin().expect("margin");
        // sd = 0.5 / sqrt(20); mu +/- 1.96 sd = 0.5 +/- 0.219.
        let want = (elo_of_score(0.5 + Z975 * 0.5 / 20f64.sqrt())
            - elo_of_score(0.5 - Z975 * 0.5 / 20f64.sqrt()))
            / 2.0;
        assert!((m - want).abs() < 1e-9);
        assert!((m - 163.3).abs() < 0.1, "{m}");
    }

    #[test]
    fn mirrored_results_mirror_the_elo() {
        // Enough games that the score's 95% interval stays inside (0, 1): 7-2-1 reaches 1,
        // where the error bar is open (see `sweeps_and_empty_matches_have_no_error_bar`).
        let a = Tally {
            wins: 70,
            draws: 20,
            losses: 10,
        };
        let b = Tally {
            wins: 10,
            draws: 20,
            losses: 70,
        };
        assert!((a.elo().unwrap() + b.elo().unwrap()).abs() < 1e-9);
        assert!((a.error_margin().unwrap() - b.error_margin().unwrap()).abs() < 1e-9);
    }

    #[test]
    fn sweeps_and_empty_matches_have_no_error_bar() {
        let all = Tally {
            wins: 5,
            draws: 0,
            losses: 0,
        };
        assert_eq!(all.error_margin(), None);
        // The lower end is finite (the score is at least 1 - 1.96 x 0.5 / sqrt(5)).
        let want = elo_of_score(1.0 - Z975 * 0.5 / 5f64.sqrt());
        assert_eq!(
            all.elo_line(),
            format!("Elo difference: +inf (every game won), 95% interval {want:+.1} to +inf")
        );
        assert!((want - 43.1).abs() < 0.1, "{want}");
        // One or two games won tell little: the interval reaches below an even score.
        for wins in [1, 2] {
            let t = Tally {
                wins,
                draws: 0,
                losses: 0,
            };
            let line = t.elo_line();
            assert!(line.ends_with(" to +inf"), "{line}");
            assert!(!line.contains("interval +inf"), "{line}");
            let lost = Tally {
                wins: 0,
                draws: 0,
                losses: wins,
            };
            assert!(
                lost.elo_line().contains("interval -inf to "),
                "{}",
                lost.elo_line()
            );
            assert!(!lost.elo_line().ends_with("-inf"), "{}", lost.elo_line());
        }
        // 9 wins, 1 draw: the score's interval reaches 1, so only the lower end is finite.
        let nearly = Tally {
            wins: 9,
            draws: 1,
            losses: 0,
        };
        assert_eq!(nearly.error_margin(), None);
        let line = nearly.elo_line();
        assert!(
            line.contains("to +inf") && line.starts_with("Elo difference: +"),
            "{line}"
        );
        assert_eq!(Tally::default().elo(), None);
        assert!(Tally::default().elo_line().contains("no game"));
    }

    #[test]
    fn draws_count_half() {
        let t = Tally {
            wins: 0,
            draws: 4,
            losses: 0,
        };
        assert_eq!(t.score(), Some(0.5));
        // Four draws alone: no spread in the sample, so the widest one a score can have
        // (0.5 a game) gives the interval 0.5 +/- 1.96 x 0.25.
        let m = t.error_margin().expect("inside (0, 1)");
        let want = (elo_of_score(0.5 + Z975 * 0.25) - elo_of_score(0.5 - Z975 * 0.25)) / 2.0;
        assert!((m - want).abs() < 1e-9, "{m}");
        assert!(m > 700.0, "{m}");
    }
}
