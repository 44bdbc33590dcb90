//! The macros every modelled function uses.

/// Start a step: in probing mode, stop in front of it (see `mod.rs`).
macro_rules! step {
    ($m:expr) => {
        if $m.core.probing {
            return Flow::Pending;
        }
    };
}

/// Describe the current step for the event stream. Arguments are evaluated only when events
/// are being recorded, so the explorer and benchmarks pay nothing for them.
macro_rules! note {
    ($m:expr, $kind:ident, $target:expr, $($narr:tt)+) => {
        if $m.core.recording() {
            let target: String = $target;
            let narration: String = format!($($narr)+);
            $m.core.set_note($crate::event::EventKind::$kind, target, narration);
        }
    };
}

/// Record the value a step read or wrote (names, for the event stream).
macro_rules! rw {
    ($m:expr, read = $r:expr) => {
        if $m.core.recording() {
            let v: String = $r;
            $m.core.set_read(v);
        }
    };
    ($m:expr, wrote = $w:expr) => {
        if $m.core.recording() {
            let v: String = $w;
            $m.core.set_wrote(v);
        }
    };
}

/// `?` for the step functions: the value inside `Some`, or stop the label here with an
/// internal error of the model (`Fault::Unset`, naming the expression; see `Fault`). A
/// third argument is what a function that is not a step function returns instead.
macro_rules! need {
    ($m:expr, $e:expr) => {
        match $e {
            Some(v) => v,
            None => return $m.core.fault($crate::model::Fault::Unset(stringify!($e))),
        }
    };
    ($m:expr, $e:expr, ()) => {
        match $e {
            Some(v) => v,
            None => {
                $m.core.fault($crate::model::Fault::Unset(stringify!($e)));
                return;
            }
        }
    };
    ($m:expr, $e:expr, $otherwise:expr) => {
        match $e {
            Some(v) => v,
            None => {
                $m.core.fault($crate::model::Fault::Unset(stringify!($e)));
                return $otherwise;
            }
        }
    };
}
