//! Named numeric constants of the search (margins, reductions, scales), so
//! that a tuner can reach them. A normal build compiles each as a constant;
//! a build with the `tune` feature reads it from a table that UCI
//! `setoption` writes, so that SPSA can vary it between games without a
//! rebuild. The list itself is in `params.rs`, next to the switches.

/// One tunable as the outside sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// UCI option name.
    pub name: &'static str,
    /// The compiled-in value.
    pub default: i32,
    /// Smallest value a tuner may try.
    pub min: i32,
    /// Largest value a tuner may try.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (OpenBench's `c_end`).
    pub step: f64,
    /// What it does.
    pub help: &'static str,
}

impl Tunable {
    /// OpenBench's SPSA input line: `name, int, value, min, max, c_end, r_end`
    /// (`r_end` 0.002, the learning rate OpenBench's documentation starts from).
    pub fn openbench_line(&self, value: i32) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, 0.002",
            self.name, value, self.min, self.max, self.step
        )
    }
}

/// Declares the tunables: an accessor function per entry, the `TUNABLES`
/// table, and (tune builds) the values behind the accessors with a setter.
macro_rules! tunables {
    ( $( $id:ident : $name:literal = $default:literal, $min:literal ..= $max:literal, step $step:literal, $help:literal; )* ) => {
        /// Every tunable, in declaration order.
        pub const TUNABLES: &[$crate::tunable::Tunable] = &[
            $( $crate::tunable::Tunable { name: $name, default: $default, min: $min, max: $max, step: $step, help: $help }, )*
        ];

        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        #[repr(usize)]
        enum TunableIndex { $( $id, )* }

        #[cfg(feature = "tune")]
        static TUNABLE_VALUES: [std::sync::atomic::AtomicI32; TUNABLES.len()] =
            [ $( std::sync::atomic::AtomicI32::new($default), )* ];

        /// The tunables' accessors: constants in a normal build.
        pub mod tuned {
            $(
                #[doc = $help]
                #[inline(always)]
                pub fn $id() -> i32 {
                    #[cfg(feature = "tune")]
                    {
                        super::TUNABLE_VALUES[super::TunableIndex::$id as usize]
                            .load(std::sync::atomic::Ordering::Relaxed)
                    }
                    #[cfg(not(feature = "tune"))]
                    {
                        let _ = super::TunableIndex::$id;
                        $default
                    }
                }
            )*
        }

        /// The current value of every tunable, in `TUNABLES` order.
        pub fn tunable_values() -> Vec<i32> {
            vec![ $( tuned::$id(), )* ]
        }

        /// Sets a tunable by UCI name (case-insensitive); `None` when no
        /// tunable has that name or this build compiles them as constants.
        #[allow(unused_variables)]
        fn set_tunable(name: &str, value: &str) -> Option<Result<(), ParamError>> {
            #[cfg(feature = "tune")]
            {
                let i = TUNABLES.iter().position(|t| t.name.eq_ignore_ascii_case(name))?;
                let t = &TUNABLES[i];
                return Some(match value.trim().parse::<i32>() {
                    Ok(v) if (t.min..=t.max).contains(&v) => {
                        TUNABLE_VALUES[i].store(v, std::sync::atomic::Ordering::Relaxed);
                        Ok(())
                    }
                    _ => Err(ParamError::BadValue {
                        name: t.name,
                        value: value.to_string(),
                        expected: format!("a number from {} to {}", t.min, t.max),
                    }),
                });
            }
            #[cfg(not(feature = "tune"))]
            None
        }
    };
}

pub(crate) use tunables;
