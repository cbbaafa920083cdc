//! The learning-rate schedule.

/// How the learning rate changes over the run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// Multiplied by `gamma` every `every` epochs.
    Step {
        /// Epochs between drops.
        every: usize,
        /// The factor at each drop.
        gamma: f32,
    },
    /// Half a cosine from the initial rate down to `final_fraction` of it
    /// at the end of the last epoch.
    Cosine {
        /// The final rate as a fraction of the initial one.
        final_fraction: f32,
    },
}

impl Schedule {
    /// The learning rate at `progress` epochs done (fractional) out of
    /// `epochs`, starting from `lr`.
    pub fn rate(&self, lr: f32, progress: f64, epochs: usize) -> f32 {
        match *self {
            Schedule::Step { every, gamma } => {
                let drops = (progress.max(0.0) as usize) / every.max(1);
                lr * gamma.powi(drops.min(i32::MAX as usize) as i32)
            }
            Schedule::Cosine { final_fraction } => {
                let t = (progress / epochs.max(1) as f64).clamp(0.0, 1.0);
                let low = lr * final_fraction;
                let cos = 0.5 * (1.0 + (std::f64::consts::PI * t).cos()) as f32;
                low + (lr - low) * cos
            }
        }
    }

    /// A short description for the log.
    pub fn describe(&self) -> String {
        match *self {
            Schedule::Step { every, gamma } => format!("step (x{gamma} every {every} epochs)"),
            Schedule::Cosine { final_fraction } => {
                format!("cosine (down to {final_fraction} of the initial rate)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_drops_on_schedule() {
        let s = Schedule::Step {
            every: 2,
            gamma: 0.5,
        };
        assert_eq!(s.rate(1.0, 0.0, 6), 1.0);
        assert_eq!(s.rate(1.0, 1.9, 6), 1.0);
        assert_eq!(s.rate(1.0, 2.0, 6), 0.5);
        assert_eq!(s.rate(1.0, 5.5, 6), 0.25);
    }

    #[test]
    fn cosine_runs_from_start_to_floor() {
        let s = Schedule::Cosine {
            final_fraction: 0.1,
        };
        assert!((s.rate(1.0, 0.0, 10) - 1.0).abs() < 1e-6);
        assert!((s.rate(1.0, 5.0, 10) - 0.55).abs() < 1e-6);
        assert!((s.rate(1.0, 10.0, 10) - 0.1).abs() < 1e-6);
    }
}
