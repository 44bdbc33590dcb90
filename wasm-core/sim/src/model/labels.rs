//! Program-counter labels: one enum for every line of the modelled functions (the spec's
//! `A1`…`X6`, plus `LL*` for the 5.15+ slow path, `DS*` for the splice deactivation, `E0*`/
//! `E3*`/`L*` for the older fast paths, `K*`/`T*` for the flush write orders, `*r`/`*c` for
//! the free work after a call returns). The listing (`crate::listing`) uses the same names.

macro_rules! labels {
    ($($l:ident,)+) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Pc { $($l),+ }
        impl Pc {
            pub fn name(self) -> &'static str { match self { $(Pc::$l => stringify!($l)),+ } }
        }
    };
}

labels!(
    A1, A10, A11, A2, A3, A4, A5, A6, A7, A7r, A8, A9, AllocEntry, B1, B10, B11, B12, B13, B14,
    B15, B15b, B16, B17, B17r, B18f, B18r, B19, B2, B20, B20c, B21, B22, B3, B4, B4a, B4b, B4c,
    B4d, B5, B6, B8, B8a, B8b, D0, D0b, D1, D10, D2, D3, D3r, D4, D5, D6, D7, D7a, D7r, D8, D8r,
    D9, DS0, DS1, DS2, DS3, DS4, DS4r, DS5, DS6, DS7, DS8, DS9, E0a, E0b, E0c, E0d, E0e, E0f, E0g,
    E0s, E0t, E3a, E3b, E3c, F1, F2, F3, F4, F5, F5r, F5s, F6, F7, F7b, F8, F9, FC0, FC2, FC2c,
    FC3, FC3p, FC3u, FC4, FE0a, FE0b, FE0c, FE0d, FE0e, FE0f, FE0g, FE0s, FE3a, FE3b, FE3c, FL0,
    FL1, FL2, FL3, FL4, FL5, FL5a, FL5b, FL5c, FL5d, FL6, FLs, FreeEntry, G1, G2, G3, G3r, H1, H2,
    H3, H4a, H4b, H4c, H4r, H5, H6, H6p, H9, K1, K2, K3, K4, K5, K6, K7, K8, L0, L1, L2, L3, L4,
    L5, L5a, L5b, L5c, L5d, L6, LL0, LL1, LL10, LL11, LL12, LL13, LL2, LL20, LL21, LL22, LL23,
    LL24, LL25, LL25i, LL25n, LL25p, LL26, LL27, LL28, LL3, LL30, LL31, LL32, LL33, LL34, LL35,
    LL37, LL4, LL40, LL41, LL42, LL43, LL44, LL45, LL46, LL5, LL50, LL51, LL52, LL53, LL54, LL54r,
    LL55, LL56, LL57, LL58, LL6, LL7, LL8, LL8a, LL8b, LL8c, LL9, LLu2, LLu20, LLu25, LLu37, LLu40,
    Ls, Lt, N1, N2, N3, N4, N5, Q1, Q2, Q3, Q3r, Q4, S0, S1, S2, S3, S4, S5, S5p, S5r, S6, S6d,
    S6r, S6u, S7, S8, T1, T2, T3, T4, TC, U1, U10, U11, U12, U13, U2, U3, U3b, U3c, U4, U5, U6, U7,
    U8, U9, V1, V2, V3, V3l, V3u, V3z, V4, V5, V5r, V6, V7, V8, VZ2, VZ6, W1, W2, W2c, W3, W4, W4b,
    W9, X1, X2, X3, X4, X5, X6, B17f, B17g, LL41f, DSL, DSU, DSK, FLs2,
    FLr, // SLAB (spec Appendix A)
    CA0, CA1, CA1r, CA1s, CA2, CA3, RF1, RF2, RF3, RF4, RF5, RF6, RF7, RF8, RF8r, RF9, RF9c, RF9r,
    RF10, GB1, GB2, GB3, GB4, GE1, GE2, GE3, CF0, CF1, CF1f, CF2, CF3, CFA1, CFA2, CFA3, CFA4, FA0,
    FA1, FA2, FA3, FA4, FA4d, FA5, FA6, FA7, DD0, DD1, DD2, DD3, DD3d, DD4, DD5, DD6, DD7,
    // Linux 7.0's sheaves (spec Appendix C; labels shared with other functions' lines are
    // reused: a label is read with its function)
    SA1, SA2, SA5, SA6, SA7, SA8, SA9, SA12, SAe, SAr, SAs, SAt, SE2, SE2b, SE3, SE4, SE5, SE6, SE7,
    SE8, SE8r, SE9, SE10, SE11, SE11r, SE11f, SE11g, SE12, SE12r, SE13, SE13r, SE14, SE14b, SE15,
    SE16, SE16r, SE17, SE17r, BRE1, BRE2, BRE3, BRE4, BGE1, BGE2, BGE3, BGE4, BRF1, BRF2, BRF3,
    BRF4, BRF5, BP1, BP2, BP3, RS1, RS2, RS3, RS4, RO2, RO3, RO3r, RO5, RO5r, RO7, RO7r, RN1, RN1r,
    RN2, RN3, RN3r, RN4, RN5, RN5r, RN7, RN7u, RN8, GN1, GN3, NS3, NS4, NS5, NS5a, NS5u, NB1, NB2,
    SL1, SL3, SL3r, SL3a, SL5, SL5r, SL7, SL7r, GP1, GP2, GP4, GP4b, GP5, GP6, GP7, SF2, SF3, SF3r,
    SF4, SF4r, FP1, FP2, FP3, FP4, FP5, FP5r, FP6, FP7, FP8, FP10, FR2, FR3, FR4, FR4r, FR5, FR5b,
    FR6, FR6r, FR7, FR8, FR8u, FR8f, FR8r, FR10, FR10r, FR11, FR12, FR12a, FR12b, FR12c, FR13,
    FR13r, FR13f, FR14, FR14r, FI1, FI2, FI2r, FI3, FI4, FI4r, FM1, FM1r, FM2, FM3, FM4, FM4r, FM5,
    FM5r, FU1, FU3, FU3r, KB1, KB2, KB3, KB3r, SS1, SS2, SS4, SS5, SS6, SS7, SS8, SS9, SS10, SS10u,
    SS11, SS11u, SS11d, HP2, HP3, HP3r, HP4, HP4r, HP4f, FA1a, FA1b, FA1u, FA2r, FA2f, FA4r, LT1,
    LT2, LT2f, LT3, LU1, LU2, SAu, SE16b, RO3n, FU4, SE1, SE1u, FR1, FR1u,
);
