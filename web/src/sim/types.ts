// The shapes that cross the wasm boundary as JSON. Not written here: ts-rs generates them from
// the Rust types into ./generated (wasm-core/wasm/tests/contract.rs writes them and fails
// `cargo test` when they are stale). serde writes every field (an `Option` is `null`, never
// absent, unless marked optional) in camelCase; u64 values are plain numbers (they stay far
// below 2^53) and a Rust `char` is a one-letter string.

/** The `schemaVersion` of views and outcomes this page understands. */
export const SCHEMA_VERSION = 1;

export type { Allocator } from './generated/Allocator';
export type { ArrayView } from './generated/ArrayView';
export type { BarnView } from './generated/BarnView';
export type { CacheConfig } from './generated/CacheConfig';
export type { CasHalf } from './generated/CasHalf';
export type { ContextKind } from './generated/ContextKind';
export type { ContextState } from './generated/ContextState';
export type { ContextView } from './generated/ContextView';
export type { CpuView } from './generated/CpuView';
export type { Cycles } from './generated/Cycles';
export type { ExploreProgressCounts } from './generated/ExploreProgressCounts';
export type { ExploreResult } from './generated/ExploreResult';
export type { ExploreViolation } from './generated/ExploreViolation';
export type { FastOp } from './generated/FastOp';
export type { LineHolds } from './generated/LineHolds';
export type { LineView } from './generated/LineView';
export type { ListingFunction } from './generated/ListingFunction';
export type { ListingLine } from './generated/ListingLine';
export type { NodeView } from './generated/NodeView';
export type { ObjectOwner } from './generated/ObjectOwner';
export type { ObjectView } from './generated/ObjectView';
export type { Outcome } from './generated/Outcome';
export type { PcsView } from './generated/PcsView';
export type { Scene } from './generated/Scene';
export type { SheafView } from './generated/SheafView';
export type { SimEvent } from './generated/SimEvent';
export type { SlabNodeView } from './generated/SlabNodeView';
export type { RetiredArrayView } from './generated/RetiredArrayView';
export type { SharedReaderView } from './generated/SharedReaderView';
export type { SlabOwner } from './generated/SlabOwner';
export type { SlabView } from './generated/SlabView';
export type { SnapshotView } from './generated/SnapshotView';
export type { Stats } from './generated/Stats';
export type { Transition } from './generated/Transition';
export type { Variant as VariantView } from './generated/Variant';
export type { VarOutcome } from './generated/VarOutcome';
export type { VarView } from './generated/VarView';
export type { View } from './generated/View';
export type { Violation } from './generated/Violation';
