//! The macros every modelled function uses. Each takes the `Core` (`step!(self.core)`,
//! `note!(self.core, ..)`), not the machine, so a step function written against its
//! allocator's state and a `&mut Core` calls them the same way.

/// Start a step: in probing mode, stop in front of it (see `mod.rs`).
macro_rules! step {
    ($c:expr) => {
        if $c.probing {
            return Flow::Pending;
        }
    };
}

/// Describe the current step for the event stream. Arguments are evaluated only when events
/// are being recorded, so the explorer and benchmarks pay nothing for them.
macro_rules! note {
    ($c:expr, $kind:ident, $target:expr, $($narr:tt)+) => {
        if $c.recording() {
            let target: String = $target;
            let narration: String = format!($($narr)+);
            $c.set_note($crate::event::EventKind::$kind, target, narration);
        }
    };
}

/// Record the value a step read or wrote (names, for the event stream).
macro_rules! rw {
    ($c:expr, read = $r:expr) => {
        if $c.recording() {
            let v: String = $r;
            $c.set_read(v);
        }
    };
    ($c:expr, wrote = $w:expr) => {
        if $c.recording() {
            let v: String = $w;
            $c.set_wrote(v);
        }
    };
}

/// `?` for the step functions: the value inside `Some`, or stop the label here with an
/// internal error of the model (`Fault::Unset`, naming the expression; see `Fault`). A
/// third argument is what a function that is not a step function returns instead.
macro_rules! need {
    ($c:expr, $e:expr) => {
        match $e {
            Some(v) => v,
            None => return $c.fault($crate::model::Fault::Unset(stringify!($e))),
        }
    };
    ($c:expr, $e:expr, ()) => {
        match $e {
            Some(v) => v,
            None => {
                $c.fault($crate::model::Fault::Unset(stringify!($e)));
                return;
            }
        }
    };
    ($c:expr, $e:expr, $otherwise:expr) => {
        match $e {
            Some(v) => v,
            None => {
                $c.fault($crate::model::Fault::Unset(stringify!($e)));
                return $otherwise;
            }
        }
    };
}
