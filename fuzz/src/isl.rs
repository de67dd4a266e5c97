//! A minimal hand-written binding to the system isl, for differential testing only.
//! Each object is owned by a Rust value that frees it; isl's `__isl_take`
//! arguments get copies, so every wrapper method borrows `self`.

use std::ffi::{CStr, CString, c_char, c_int};

#[repr(C)]
struct IslCtx {
    _p: [u8; 0],
}
#[repr(C)]
struct IslUnionSet {
    _p: [u8; 0],
}
#[repr(C)]
struct IslUnionMap {
    _p: [u8; 0],
}
#[repr(C)]
struct IslUnionAccessInfo {
    _p: [u8; 0],
}
#[repr(C)]
struct IslUnionFlow {
    _p: [u8; 0],
}
#[repr(C)]
struct IslScheduleConstraints {
    _p: [u8; 0],
}
#[repr(C)]
struct IslSchedule {
    _p: [u8; 0],
}
#[repr(C)]
struct IslScheduleNode {
    _p: [u8; 0],
}

unsafe extern "C" {
    fn isl_ctx_alloc() -> *mut IslCtx;
    fn isl_ctx_free(ctx: *mut IslCtx);
    fn isl_ctx_set_max_operations(ctx: *mut IslCtx, max: std::ffi::c_ulong);
    fn isl_ctx_reset_operations(ctx: *mut IslCtx);
    fn isl_ctx_last_error(ctx: *mut IslCtx) -> c_int;
    fn isl_ctx_reset_error(ctx: *mut IslCtx);
    fn isl_options_set_on_error(ctx: *mut IslCtx, val: c_int) -> c_int;
    fn isl_union_set_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslUnionSet;
    fn isl_union_set_copy(s: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_free(s: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_to_str(s: *mut IslUnionSet) -> *mut c_char;
    fn isl_union_set_is_empty(s: *mut IslUnionSet) -> c_int;
    fn isl_union_set_is_subset(a: *mut IslUnionSet, b: *mut IslUnionSet) -> c_int;
    fn isl_union_set_is_equal(a: *mut IslUnionSet, b: *mut IslUnionSet) -> c_int;
    fn isl_union_set_subtract(a: *mut IslUnionSet, b: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_union(a: *mut IslUnionSet, b: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_coalesce(a: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_lexmin(a: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_lexmax(a: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_gist(a: *mut IslUnionSet, c: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_intersect(a: *mut IslUnionSet, b: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_map_gist(a: *mut IslUnionMap, c: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_deltas(a: *mut IslUnionMap) -> *mut IslUnionSet;
    fn isl_union_map_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslUnionMap;
    fn isl_union_map_copy(s: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_free(s: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_to_str(s: *mut IslUnionMap) -> *mut c_char;
    fn isl_union_map_is_empty(s: *mut IslUnionMap) -> c_int;
    fn isl_union_map_is_subset(a: *mut IslUnionMap, b: *mut IslUnionMap) -> c_int;
    fn isl_union_map_is_equal(a: *mut IslUnionMap, b: *mut IslUnionMap) -> c_int;
    fn isl_union_map_subtract(a: *mut IslUnionMap, b: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_coalesce(a: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_reverse(a: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_domain(a: *mut IslUnionMap) -> *mut IslUnionSet;
    fn isl_union_map_range(a: *mut IslUnionMap) -> *mut IslUnionSet;
    fn isl_union_map_apply_range(a: *mut IslUnionMap, b: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_lexmin(a: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_wrap(a: *mut IslUnionMap) -> *mut IslUnionSet;
    fn isl_union_map_intersect(a: *mut IslUnionMap, b: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_union(a: *mut IslUnionMap, b: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_intersect_domain(a: *mut IslUnionMap, b: *mut IslUnionSet)
    -> *mut IslUnionMap;
    fn isl_union_map_lex_lt_union_map(a: *mut IslUnionMap, b: *mut IslUnionMap)
    -> *mut IslUnionMap;
    fn isl_union_access_info_from_sink(sink: *mut IslUnionMap) -> *mut IslUnionAccessInfo;
    fn isl_union_access_info_set_must_source(
        a: *mut IslUnionAccessInfo,
        must: *mut IslUnionMap,
    ) -> *mut IslUnionAccessInfo;
    fn isl_union_access_info_set_schedule_map(
        a: *mut IslUnionAccessInfo,
        sched: *mut IslUnionMap,
    ) -> *mut IslUnionAccessInfo;
    fn isl_union_access_info_compute_flow(a: *mut IslUnionAccessInfo) -> *mut IslUnionFlow;
    fn isl_union_flow_get_must_dependence(f: *mut IslUnionFlow) -> *mut IslUnionMap;
    fn isl_union_flow_free(f: *mut IslUnionFlow) -> *mut IslUnionFlow;
    fn isl_schedule_constraints_on_domain(d: *mut IslUnionSet) -> *mut IslScheduleConstraints;
    fn isl_schedule_constraints_set_validity(
        sc: *mut IslScheduleConstraints,
        m: *mut IslUnionMap,
    ) -> *mut IslScheduleConstraints;
    fn isl_schedule_constraints_set_proximity(
        sc: *mut IslScheduleConstraints,
        m: *mut IslUnionMap,
    ) -> *mut IslScheduleConstraints;
    fn isl_schedule_constraints_set_coincidence(
        sc: *mut IslScheduleConstraints,
        m: *mut IslUnionMap,
    ) -> *mut IslScheduleConstraints;
    fn isl_schedule_constraints_compute_schedule(
        sc: *mut IslScheduleConstraints,
    ) -> *mut IslSchedule;
    fn isl_schedule_get_map(s: *mut IslSchedule) -> *mut IslUnionMap;
    fn isl_schedule_get_root(s: *mut IslSchedule) -> *mut IslScheduleNode;
    fn isl_schedule_free(s: *mut IslSchedule) -> *mut IslSchedule;
    fn isl_schedule_node_get_type(n: *mut IslScheduleNode) -> c_int;
    fn isl_schedule_node_n_children(n: *mut IslScheduleNode) -> c_int;
    fn isl_schedule_node_get_child(n: *mut IslScheduleNode, pos: c_int) -> *mut IslScheduleNode;
    fn isl_schedule_node_band_n_member(n: *mut IslScheduleNode) -> c_int;
    fn isl_schedule_node_band_member_get_coincident(n: *mut IslScheduleNode, pos: c_int) -> c_int;
    fn isl_schedule_node_band_get_permutable(n: *mut IslScheduleNode) -> c_int;
    fn isl_schedule_node_free(n: *mut IslScheduleNode) -> *mut IslScheduleNode;
    fn free(p: *mut std::ffi::c_void);
}

// ----- code generation (isl's AST generator; used by src/ast_isl.rs) -----
#[repr(C)]
struct IslSet {
    _p: [u8; 0],
}
#[repr(C)]
struct IslAstBuild {
    _p: [u8; 0],
}
#[repr(C)]
struct IslAstNode {
    _p: [u8; 0],
}
#[repr(C)]
struct IslAstNodeList {
    _p: [u8; 0],
}
#[repr(C)]
struct IslAstExpr {
    _p: [u8; 0],
}
#[repr(C)]
struct IslId {
    _p: [u8; 0],
}
#[repr(C)]
struct IslVal {
    _p: [u8; 0],
}

unsafe extern "C" {
    fn isl_set_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslSet;
    fn isl_ast_build_from_context(set: *mut IslSet) -> *mut IslAstBuild;
    fn isl_ast_build_free(b: *mut IslAstBuild) -> *mut IslAstBuild;
    fn isl_ast_build_node_from_schedule_map(
        b: *mut IslAstBuild,
        schedule: *mut IslUnionMap,
    ) -> *mut IslAstNode;
    fn isl_ast_node_free(n: *mut IslAstNode) -> *mut IslAstNode;
    fn isl_ast_node_to_C_str(n: *mut IslAstNode) -> *mut c_char;
    fn isl_ast_node_get_type(n: *mut IslAstNode) -> c_int;
    fn isl_ast_node_for_get_iterator(n: *mut IslAstNode) -> *mut IslAstExpr;
    fn isl_ast_node_for_get_init(n: *mut IslAstNode) -> *mut IslAstExpr;
    fn isl_ast_node_for_get_cond(n: *mut IslAstNode) -> *mut IslAstExpr;
    fn isl_ast_node_for_get_inc(n: *mut IslAstNode) -> *mut IslAstExpr;
    fn isl_ast_node_for_get_body(n: *mut IslAstNode) -> *mut IslAstNode;
    fn isl_ast_node_if_get_cond(n: *mut IslAstNode) -> *mut IslAstExpr;
    fn isl_ast_node_if_get_then_node(n: *mut IslAstNode) -> *mut IslAstNode;
    fn isl_ast_node_if_has_else_node(n: *mut IslAstNode) -> c_int;
    fn isl_ast_node_if_get_else_node(n: *mut IslAstNode) -> *mut IslAstNode;
    fn isl_ast_node_block_get_children(n: *mut IslAstNode) -> *mut IslAstNodeList;
    fn isl_ast_node_mark_get_node(n: *mut IslAstNode) -> *mut IslAstNode;
    fn isl_ast_node_user_get_expr(n: *mut IslAstNode) -> *mut IslAstExpr;
    fn isl_ast_node_list_n_ast_node(l: *mut IslAstNodeList) -> c_int;
    fn isl_ast_node_list_get_ast_node(l: *mut IslAstNodeList, i: c_int) -> *mut IslAstNode;
    fn isl_ast_node_list_free(l: *mut IslAstNodeList) -> *mut IslAstNodeList;
    fn isl_ast_expr_free(e: *mut IslAstExpr) -> *mut IslAstExpr;
    fn isl_ast_expr_get_type(e: *mut IslAstExpr) -> c_int;
    fn isl_ast_expr_op_get_type(e: *mut IslAstExpr) -> c_int;
    fn isl_ast_expr_op_get_n_arg(e: *mut IslAstExpr) -> c_int;
    fn isl_ast_expr_op_get_arg(e: *mut IslAstExpr, pos: c_int) -> *mut IslAstExpr;
    fn isl_ast_expr_get_id(e: *mut IslAstExpr) -> *mut IslId;
    fn isl_ast_expr_get_val(e: *mut IslAstExpr) -> *mut IslVal;
    fn isl_id_get_name(id: *mut IslId) -> *const c_char;
    fn isl_id_free(id: *mut IslId) -> *mut IslId;
    fn isl_val_get_num_si(v: *mut IslVal) -> std::ffi::c_long;
    fn isl_val_get_den_si(v: *mut IslVal) -> std::ffi::c_long;
    fn isl_val_free(v: *mut IslVal) -> *mut IslVal;
}

const ISL_ON_ERROR_CONTINUE: c_int = 1;
const ISL_ERROR_QUOTA: c_int = 6;

/// An isl context (and the operation limit set on it).
pub struct Ctx(*mut IslCtx, std::cell::Cell<u64>);

impl Ctx {
    /// A new context that reports errors by returning null (no abort).
    pub fn new() -> Ctx {
        // SAFETY: plain constructor of the C library.
        let ctx = unsafe { isl_ctx_alloc() };
        assert!(!ctx.is_null(), "isl_ctx_alloc failed");
        // SAFETY: ctx is valid.
        unsafe { isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE) };
        Ctx(ctx, std::cell::Cell::new(0))
    }

    /// Limits the work of isl (in its own unit, counted since the last
    /// [`Ctx::reset_operations`]); past the limit, operations fail (`None`) and
    /// [`Ctx::quota_hit`] is true. 0 means no limit.
    pub fn set_max_operations(&self, max: u64) {
        self.1.set(max);
        // SAFETY: valid context.
        unsafe { isl_ctx_set_max_operations(self.0, max as std::ffi::c_ulong) }
    }

    /// Runs `f` without the operation limit (restored afterwards).
    pub fn unlimited<R>(&self, f: impl FnOnce() -> R) -> R {
        let max = self.1.get();
        self.set_max_operations(0);
        self.reset_operations();
        let r = f();
        self.set_max_operations(max);
        r
    }

    /// Restarts the count of operations and forgets the last error.
    pub fn reset_operations(&self) {
        // SAFETY: valid context.
        unsafe {
            isl_ctx_reset_operations(self.0);
            isl_ctx_reset_error(self.0);
        }
    }

    /// True when the last error was the operation limit.
    pub fn quota_hit(&self) -> bool {
        // SAFETY: valid context.
        unsafe { isl_ctx_last_error(self.0) == ISL_ERROR_QUOTA }
    }

    /// Parses a union set; `None` when isl rejects the text.
    pub fn union_set(&self, text: &str) -> Option<USet<'_>> {
        let c = CString::new(text).ok()?;
        // SAFETY: valid context and NUL-terminated string.
        let p = unsafe { isl_union_set_read_from_str(self.0, c.as_ptr()) };
        (!p.is_null()).then_some(USet(p, self))
    }

    /// Parses a union map; `None` when isl rejects the text.
    pub fn union_map(&self, text: &str) -> Option<UMap<'_>> {
        let c = CString::new(text).ok()?;
        // SAFETY: valid context and NUL-terminated string.
        let p = unsafe { isl_union_map_read_from_str(self.0, c.as_ptr()) };
        (!p.is_null()).then_some(UMap(p, self))
    }

    /// Emptiness of a union map given as text; `None` when isl rejects it.
    pub fn union_map_is_empty(&self, text: &str) -> Option<bool> {
        let c = CString::new(text).ok()?;
        // SAFETY: as above; the map is freed before returning.
        unsafe {
            let p = isl_union_map_read_from_str(self.0, c.as_ptr());
            if p.is_null() {
                return None;
            }
            let r = isl_union_map_is_empty(p);
            isl_union_map_free(p);
            boolean(r)
        }
    }
}

impl Default for Ctx {
    /// [`Ctx::new`].
    fn default() -> Self {
        Ctx::new()
    }
}

impl Drop for Ctx {
    /// Frees the context.
    fn drop(&mut self) {
        // SAFETY: every object of the context borrows it, so none outlives it.
        unsafe { isl_ctx_free(self.0) }
    }
}

/// The text of a malloc'd NUL-terminated string from isl (empty for null), freed.
fn take_string(p: *mut c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: isl returned a valid NUL-terminated string that we own.
    unsafe {
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        free(p.cast());
        s
    }
}

/// isl's `isl_bool` (or a plain C truth value): `None` for an error (-1).
fn boolean(r: c_int) -> Option<bool> {
    match r {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// An isl union set.
pub struct USet<'a>(*mut IslUnionSet, &'a Ctx);

impl<'a> USet<'a> {
    /// A new reference to the object, for a call that takes its argument.
    fn copy(&self) -> *mut IslUnionSet {
        // SAFETY: self.0 is a valid object.
        unsafe { isl_union_set_copy(self.0) }
    }

    /// Owns a result of isl in this context; `None` for null (isl failed).
    fn wrap(&self, p: *mut IslUnionSet) -> Option<Self> {
        (!p.is_null()).then_some(USet(p, self.1))
    }

    /// Emptiness; `None` when isl fails.
    pub fn is_empty(&self) -> Option<bool> {
        // SAFETY: valid object, not consumed.
        boolean(unsafe { isl_union_set_is_empty(self.0) })
    }

    /// `self ⊆ other`; `None` when isl fails.
    pub fn is_subset(&self, other: &USet) -> Option<bool> {
        // SAFETY: valid objects, not consumed.
        boolean(unsafe { isl_union_set_is_subset(self.0, other.0) })
    }

    /// `self = other`; `None` when isl fails.
    pub fn is_equal(&self, other: &USet) -> Option<bool> {
        // SAFETY: valid objects, not consumed.
        boolean(unsafe { isl_union_set_is_equal(self.0, other.0) })
    }

    /// `self \ other`.
    pub fn subtract(&self, other: &USet) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_set_subtract(self.copy(), other.copy()) })
    }

    /// isl's coalescing (the same set, fewer disjuncts).
    pub fn coalesce(&self) -> Option<Self> {
        // SAFETY: the call takes the copy.
        self.wrap(unsafe { isl_union_set_coalesce(self.copy()) })
    }

    /// `self ∪ other` (not coalesced).
    pub fn union(&self, other: &USet) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_set_union(self.copy(), other.copy()) })
    }

    /// The lexicographic minimum of each space.
    pub fn lexmin(&self) -> Option<Self> {
        // SAFETY: the call takes the copy.
        self.wrap(unsafe { isl_union_set_lexmin(self.copy()) })
    }

    /// The lexicographic maximum of each space.
    pub fn lexmax(&self) -> Option<Self> {
        // SAFETY: the call takes the copy.
        self.wrap(unsafe { isl_union_set_lexmax(self.copy()) })
    }

    /// isl's gist against `context`, space by space.
    pub fn gist(&self, context: &USet) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_set_gist(self.copy(), context.copy()) })
    }

    /// Intersection, space by space.
    pub fn intersect(&self, other: &USet) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_set_intersect(self.copy(), other.copy()) })
    }

    /// isl's scheduler (`isl_schedule_constraints_compute_schedule`, with
    /// isl's default options) on the instances of `self` under the
    /// validity, proximity and coincidence constraints given; `None` when
    /// isl fails (its operation limit, most likely).
    pub fn compute_schedule(
        &self,
        validity: &UMap,
        proximity: &UMap,
        coincidence: &UMap,
    ) -> Option<Schedule<'a>> {
        // SAFETY: each call takes the objects passed in (copies); on failure
        // isl frees what it took and returns null, so nothing is left to free.
        unsafe {
            let mut sc = isl_schedule_constraints_on_domain(self.copy());
            if sc.is_null() {
                return None;
            }
            sc = isl_schedule_constraints_set_validity(sc, validity.copy());
            if sc.is_null() {
                return None;
            }
            sc = isl_schedule_constraints_set_proximity(sc, proximity.copy());
            if sc.is_null() {
                return None;
            }
            sc = isl_schedule_constraints_set_coincidence(sc, coincidence.copy());
            if sc.is_null() {
                return None;
            }
            let p = isl_schedule_constraints_compute_schedule(sc);
            (!p.is_null()).then_some(Schedule(p, self.1))
        }
    }

    /// isl's printing of the object.
    pub fn to_text(&self) -> String {
        // SAFETY: valid object, not consumed.
        take_string(unsafe { isl_union_set_to_str(self.0) })
    }
}

impl Drop for USet<'_> {
    /// Frees the isl object.
    fn drop(&mut self) {
        // SAFETY: owned object.
        unsafe { isl_union_set_free(self.0) };
    }
}

/// An isl union map.
pub struct UMap<'a>(*mut IslUnionMap, &'a Ctx);

impl<'a> UMap<'a> {
    /// A new reference to the object, for a call that takes its argument.
    fn copy(&self) -> *mut IslUnionMap {
        // SAFETY: self.0 is a valid object.
        unsafe { isl_union_map_copy(self.0) }
    }

    /// Owns a result of isl in this context; `None` for null (isl failed).
    fn wrap(&self, p: *mut IslUnionMap) -> Option<Self> {
        (!p.is_null()).then_some(UMap(p, self.1))
    }

    /// Owns a union set returned by isl; `None` for null (isl failed).
    fn wrap_set(&self, p: *mut IslUnionSet) -> Option<USet<'a>> {
        (!p.is_null()).then_some(USet(p, self.1))
    }

    /// Emptiness; `None` when isl fails.
    pub fn is_empty(&self) -> Option<bool> {
        // SAFETY: valid object, not consumed.
        boolean(unsafe { isl_union_map_is_empty(self.0) })
    }

    /// `self ⊆ other`; `None` when isl fails.
    pub fn is_subset(&self, other: &UMap) -> Option<bool> {
        // SAFETY: valid objects, not consumed.
        boolean(unsafe { isl_union_map_is_subset(self.0, other.0) })
    }

    /// `self = other`; `None` when isl fails.
    pub fn is_equal(&self, other: &UMap) -> Option<bool> {
        // SAFETY: valid objects, not consumed.
        boolean(unsafe { isl_union_map_is_equal(self.0, other.0) })
    }

    /// `self \ other`.
    pub fn subtract(&self, other: &UMap) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_map_subtract(self.copy(), other.copy()) })
    }

    /// isl's coalescing (the same set, fewer disjuncts).
    pub fn coalesce(&self) -> Option<Self> {
        // SAFETY: the call takes the copy.
        self.wrap(unsafe { isl_union_map_coalesce(self.copy()) })
    }

    /// The inverse relation.
    pub fn reverse(&self) -> Option<Self> {
        // SAFETY: the call takes the copy.
        self.wrap(unsafe { isl_union_map_reverse(self.copy()) })
    }

    /// Composition: `self` then `next`.
    pub fn apply_range(&self, next: &UMap) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_map_apply_range(self.copy(), next.copy()) })
    }

    /// For each domain point, the lexicographically least image (a map).
    pub fn lexmin(&self) -> Option<Self> {
        // SAFETY: the call takes the copy.
        self.wrap(unsafe { isl_union_map_lexmin(self.copy()) })
    }

    /// The union of the domains.
    pub fn domain(&self) -> Option<USet<'a>> {
        // SAFETY: the call takes the copy.
        self.wrap_set(unsafe { isl_union_map_domain(self.copy()) })
    }

    /// The union of the ranges.
    pub fn range(&self) -> Option<USet<'a>> {
        // SAFETY: the call takes the copy.
        self.wrap_set(unsafe { isl_union_map_range(self.copy()) })
    }

    /// isl's gist against `context`, space by space.
    pub fn gist(&self, context: &UMap) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_map_gist(self.copy(), context.copy()) })
    }

    /// `{ y - x }` of the maps whose domain and range are one space.
    pub fn deltas(&self) -> Option<USet<'a>> {
        // SAFETY: the call takes the copy.
        self.wrap_set(unsafe { isl_union_map_deltas(self.copy()) })
    }

    /// Intersection, space by space.
    pub fn intersect(&self, other: &UMap) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_map_intersect(self.copy(), other.copy()) })
    }

    /// Union.
    pub fn union(&self, other: &UMap) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_map_union(self.copy(), other.copy()) })
    }

    /// The map restricted to the domain points in `set`.
    pub fn intersect_domain(&self, set: &USet) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_map_intersect_domain(self.copy(), set.copy()) })
    }

    /// `{ i -> j : self(i) <<_lex other(j) }`: with a schedule for both, the
    /// pairs of instances in strict execution order.
    pub fn lex_lt_union_map(&self, other: &UMap) -> Option<Self> {
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_map_lex_lt_union_map(self.copy(), other.copy()) })
    }

    /// isl's dataflow analysis (`isl_union_access_info_compute_flow`) with
    /// `self` as the sink (the reads), `must_source` as the must-sources (the
    /// writes) and `schedule` as the schedule map: the must-dependences, from
    /// each sink instance's last source to it (`source -> sink`).
    pub fn compute_flow_must(&self, must_source: &UMap, schedule: &UMap) -> Option<Self> {
        // SAFETY: each call takes the object passed in (copies); the flow is
        // freed after its dependences are copied out.
        unsafe {
            let mut a = isl_union_access_info_from_sink(self.copy());
            if a.is_null() {
                return None;
            }
            a = isl_union_access_info_set_must_source(a, must_source.copy());
            if a.is_null() {
                return None;
            }
            a = isl_union_access_info_set_schedule_map(a, schedule.copy());
            if a.is_null() {
                return None;
            }
            let f = isl_union_access_info_compute_flow(a);
            if f.is_null() {
                return None;
            }
            let d = isl_union_flow_get_must_dependence(f);
            isl_union_flow_free(f);
            self.wrap(d)
        }
    }

    /// The set of pairs `{ [A[..] -> B[..]] }`.
    pub fn wrapped(&self) -> Option<USet<'a>> {
        // SAFETY: the call takes the copy.
        self.wrap_set(unsafe { isl_union_map_wrap(self.copy()) })
    }

    /// isl's printing of the object.
    pub fn to_text(&self) -> String {
        // SAFETY: valid object, not consumed.
        take_string(unsafe { isl_union_map_to_str(self.0) })
    }
}

impl Drop for UMap<'_> {
    /// Frees the isl object.
    fn drop(&mut self) {
        // SAFETY: owned object.
        unsafe { isl_union_map_free(self.0) };
    }
}

/// A schedule tree computed by isl.
pub struct Schedule<'a>(*mut IslSchedule, &'a Ctx);

impl<'a> Schedule<'a> {
    /// The schedule flattened to a union map (`isl_schedule_get_map`): each
    /// statement's instances to their times, the band members and the
    /// positions in sequences as dimensions.
    pub fn map(&self) -> Option<UMap<'a>> {
        // SAFETY: valid object, not consumed.
        let p = unsafe { isl_schedule_get_map(self.0) };
        (!p.is_null()).then_some(UMap(p, self.1))
    }

    /// The root of the tree (a domain node).
    pub fn root(&self) -> Option<ScheduleNode<'a>> {
        // SAFETY: valid object, not consumed.
        let p = unsafe { isl_schedule_get_root(self.0) };
        (!p.is_null()).then_some(ScheduleNode(p, self.1))
    }
}

impl Drop for Schedule<'_> {
    /// Frees the isl object.
    fn drop(&mut self) {
        // SAFETY: owned object.
        unsafe { isl_schedule_free(self.0) };
    }
}

/// The kind of a schedule tree node (`enum isl_schedule_node_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeType {
    /// A band of schedule dimensions.
    Band,
    /// A context node.
    Context,
    /// The root: the statement instances.
    Domain,
    /// An expansion node.
    Expansion,
    /// An extension node.
    Extension,
    /// A filter (a subset of the instances, under a sequence or set).
    Filter,
    /// A leaf.
    Leaf,
    /// A guard node.
    Guard,
    /// A mark node.
    Mark,
    /// Children run in order.
    Sequence,
    /// Children run in any order.
    Set,
}

/// A node of a schedule tree (a position in it: isl's node keeps its
/// schedule alive by reference counting).
pub struct ScheduleNode<'a>(*mut IslScheduleNode, &'a Ctx);

impl<'a> ScheduleNode<'a> {
    /// The kind of the node; `None` on isl's error.
    pub fn kind(&self) -> Option<NodeType> {
        use NodeType::*;
        // SAFETY: valid object, not consumed.
        let t = unsafe { isl_schedule_node_get_type(self.0) };
        [
            Band, Context, Domain, Expansion, Extension, Filter, Leaf, Guard, Mark, Sequence, Set,
        ]
        .get(usize::try_from(t).ok()?)
        .copied()
    }

    /// The number of children (0 for a leaf); `None` on isl's error.
    pub fn n_children(&self) -> Option<usize> {
        // SAFETY: valid object, not consumed.
        usize::try_from(unsafe { isl_schedule_node_n_children(self.0) }).ok()
    }

    /// Child `pos`; `None` when there is none.
    pub fn child(&self, pos: usize) -> Option<ScheduleNode<'a>> {
        let pos = c_int::try_from(pos).ok()?;
        // SAFETY: valid object, not consumed.
        let p = unsafe { isl_schedule_node_get_child(self.0, pos) };
        (!p.is_null()).then_some(ScheduleNode(p, self.1))
    }

    /// The number of members of a band node; `None` for another kind.
    pub fn band_n_member(&self) -> Option<usize> {
        if self.kind()? != NodeType::Band {
            return None;
        }
        // SAFETY: valid band node, not consumed.
        usize::try_from(unsafe { isl_schedule_node_band_n_member(self.0) }).ok()
    }

    /// Whether member `pos` of a band node is coincident (isl found it
    /// parallel under the coincidence constraints); `None` on isl's error.
    pub fn band_member_coincident(&self, pos: usize) -> Option<bool> {
        let pos = c_int::try_from(pos).ok()?;
        // SAFETY: valid object, not consumed.
        boolean(unsafe { isl_schedule_node_band_member_get_coincident(self.0, pos) })
    }

    /// Whether a band node is permutable; `None` on isl's error.
    pub fn band_permutable(&self) -> Option<bool> {
        // SAFETY: valid object, not consumed.
        boolean(unsafe { isl_schedule_node_band_get_permutable(self.0) })
    }
}

impl Drop for ScheduleNode<'_> {
    /// Frees the isl object.
    fn drop(&mut self) {
        // SAFETY: owned object.
        unsafe { isl_schedule_node_free(self.0) };
    }
}

// ----- code generation (isl's AST generator; used by src/ast_isl.rs) -----

/// An expression of isl's AST, copied out of isl: an integer, an
/// identifier, or an operation (isl's `isl_ast_expr_op_type` number, see
/// `isl/ast_type.h`: 0 and, 1 and_then, 2 or, 3 or_else, 4 max, 5 min,
/// 6 minus, 7 add, 8 sub, 9 mul, 10 div, 11 fdiv_q, 12 pdiv_q, 13 pdiv_r,
/// 14 zdiv_r, 15 cond, 16 select, 17 eq, 18 le, 19 lt, 20 ge, 21 gt,
/// 22 call, ...) with its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IslExpr {
    Int(i64),
    Id(String),
    Op(i32, Vec<IslExpr>),
}

/// A node of isl's AST, copied out of isl.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IslAst {
    For {
        iterator: String,
        init: IslExpr,
        cond: IslExpr,
        inc: IslExpr,
        body: Box<IslAst>,
    },
    If {
        cond: IslExpr,
        then: Box<IslAst>,
        otherwise: Option<Box<IslAst>>,
    },
    Block(Vec<IslAst>),
    /// A mark node's child.
    Mark(Box<IslAst>),
    /// A user statement: its call expression.
    User(IslExpr),
}

/// An isl AST node (owned).
pub struct AstNode<'a>(*mut IslAstNode, &'a Ctx);

impl Drop for AstNode<'_> {
    fn drop(&mut self) {
        // SAFETY: owned object.
        unsafe { isl_ast_node_free(self.0) };
    }
}

impl Ctx {
    /// isl's AST generator on a schedule (`isl_ast_build_from_context` on
    /// the parameter set `context`, then
    /// `isl_ast_build_node_from_schedule_map`, isl's default options);
    /// `None` when isl fails (or rejects the context's text).
    pub fn ast_from_schedule_map<'a>(
        &'a self,
        context: &str,
        schedule: &UMap,
    ) -> Option<AstNode<'a>> {
        let c = CString::new(context).ok()?;
        // SAFETY: valid context and string; the build takes the set, the
        // node call takes a copy of the schedule; the build is freed here.
        unsafe {
            let set = isl_set_read_from_str(self.0, c.as_ptr());
            if set.is_null() {
                return None;
            }
            let build = isl_ast_build_from_context(set);
            if build.is_null() {
                return None;
            }
            let node = isl_ast_build_node_from_schedule_map(build, schedule.copy());
            isl_ast_build_free(build);
            (!node.is_null()).then_some(AstNode(node, self))
        }
    }
}

fn take_expr(e: *mut IslAstExpr) -> Option<IslExpr> {
    if e.is_null() {
        return None;
    }
    // SAFETY: e is a valid expression that we own; it is freed at the end.
    let r = unsafe { expr_tree(e) };
    unsafe { isl_ast_expr_free(e) };
    r
}

/// # Safety
/// `e` must be a valid expression (not consumed).
unsafe fn expr_tree(e: *mut IslAstExpr) -> Option<IslExpr> {
    unsafe {
        match isl_ast_expr_get_type(e) {
            0 => {
                let op = isl_ast_expr_op_get_type(e);
                let n = isl_ast_expr_op_get_n_arg(e);
                if n < 0 {
                    return None;
                }
                let mut args = Vec::with_capacity(n as usize);
                for k in 0..n {
                    args.push(take_expr(isl_ast_expr_op_get_arg(e, k))?);
                }
                Some(IslExpr::Op(op, args))
            }
            1 => {
                let id = isl_ast_expr_get_id(e);
                if id.is_null() {
                    return None;
                }
                let name = isl_id_get_name(id);
                let s = if name.is_null() {
                    String::new()
                } else {
                    CStr::from_ptr(name).to_string_lossy().into_owned()
                };
                isl_id_free(id);
                Some(IslExpr::Id(s))
            }
            2 => {
                let v = isl_ast_expr_get_val(e);
                if v.is_null() {
                    return None;
                }
                let (num, den) = (isl_val_get_num_si(v), isl_val_get_den_si(v));
                isl_val_free(v);
                // c_long is 32 bits on some platforms
                #[allow(clippy::useless_conversion)]
                let num = i64::from(num);
                (den == 1).then_some(IslExpr::Int(num))
            }
            _ => None,
        }
    }
}

fn take_node(n: *mut IslAstNode) -> Option<IslAst> {
    if n.is_null() {
        return None;
    }
    // SAFETY: n is a valid node that we own; it is freed at the end.
    let r = unsafe { node_tree(n) };
    unsafe { isl_ast_node_free(n) };
    r
}

/// # Safety
/// `n` must be a valid node (not consumed).
unsafe fn node_tree(n: *mut IslAstNode) -> Option<IslAst> {
    unsafe {
        match isl_ast_node_get_type(n) {
            1 => {
                let iterator = match take_expr(isl_ast_node_for_get_iterator(n))? {
                    IslExpr::Id(s) => s,
                    _ => return None,
                };
                Some(IslAst::For {
                    iterator,
                    init: take_expr(isl_ast_node_for_get_init(n))?,
                    cond: take_expr(isl_ast_node_for_get_cond(n))?,
                    inc: take_expr(isl_ast_node_for_get_inc(n))?,
                    body: Box::new(take_node(isl_ast_node_for_get_body(n))?),
                })
            }
            2 => {
                let cond = take_expr(isl_ast_node_if_get_cond(n))?;
                let then = Box::new(take_node(isl_ast_node_if_get_then_node(n))?);
                let otherwise = match isl_ast_node_if_has_else_node(n) {
                    1 => Some(Box::new(take_node(isl_ast_node_if_get_else_node(n))?)),
                    0 => None,
                    _ => return None,
                };
                Some(IslAst::If {
                    cond,
                    then,
                    otherwise,
                })
            }
            3 => {
                let l = isl_ast_node_block_get_children(n);
                if l.is_null() {
                    return None;
                }
                let k = isl_ast_node_list_n_ast_node(l);
                let mut out = Vec::new();
                let mut ok = k >= 0;
                for i in 0..k.max(0) {
                    match take_node(isl_ast_node_list_get_ast_node(l, i)) {
                        Some(c) => out.push(c),
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                isl_ast_node_list_free(l);
                ok.then_some(IslAst::Block(out))
            }
            4 => Some(IslAst::Mark(Box::new(take_node(
                isl_ast_node_mark_get_node(n),
            )?))),
            5 => Some(IslAst::User(take_expr(isl_ast_node_user_get_expr(n))?)),
            _ => None,
        }
    }
}

impl AstNode<'_> {
    /// The C text of isl's printer (`isl_ast_node_to_C_str`).
    pub fn to_c(&self) -> String {
        // SAFETY: valid node, not consumed.
        take_string(unsafe { isl_ast_node_to_C_str(self.0) })
    }

    /// The tree, copied out of isl; `None` if isl reports an error.
    pub fn tree(&self) -> Option<IslAst> {
        // SAFETY: valid node, not consumed.
        unsafe { node_tree(self.0) }
    }

    /// The context this node belongs to.
    pub fn ctx(&self) -> &Ctx {
        self.1
    }
}

// ----- single-space maps and sets, and the rearrangements of spaces:
// domain_map, range_map, zip, insert_dims (used by tests/map_ops_isl.rs).
// Declared in a module of their own so that the names of this block cannot
// clash with other additions to this file. -----

pub use rearrange::{IMap, ISet, IslDim};

mod rearrange {
    use super::{Ctx, IslCtx, IslSet, UMap, boolean, take_string};
    use super::{IslUnionMap, isl_set_read_from_str};
    use std::ffi::{CString, c_char, c_int, c_uint};

    #[repr(C)]
    struct IslMap {
        _p: [u8; 0],
    }

    unsafe extern "C" {
        fn isl_map_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslMap;
        fn isl_map_copy(m: *mut IslMap) -> *mut IslMap;
        fn isl_map_free(m: *mut IslMap) -> *mut IslMap;
        fn isl_map_to_str(m: *mut IslMap) -> *mut c_char;
        fn isl_map_is_equal(a: *mut IslMap, b: *mut IslMap) -> c_int;
        fn isl_map_domain_map(m: *mut IslMap) -> *mut IslMap;
        fn isl_map_range_map(m: *mut IslMap) -> *mut IslMap;
        fn isl_map_can_zip(m: *mut IslMap) -> c_int;
        fn isl_map_zip(m: *mut IslMap) -> *mut IslMap;
        fn isl_map_insert_dims(m: *mut IslMap, t: c_int, pos: c_uint, n: c_uint) -> *mut IslMap;
        fn isl_map_set_dim_name(
            m: *mut IslMap,
            t: c_int,
            pos: c_uint,
            s: *const c_char,
        ) -> *mut IslMap;
        fn isl_set_copy(s: *mut IslSet) -> *mut IslSet;
        fn isl_set_free(s: *mut IslSet) -> *mut IslSet;
        fn isl_set_to_str(s: *mut IslSet) -> *mut c_char;
        fn isl_set_is_equal(a: *mut IslSet, b: *mut IslSet) -> c_int;
        fn isl_set_insert_dims(s: *mut IslSet, t: c_int, pos: c_uint, n: c_uint) -> *mut IslSet;
        fn isl_set_set_dim_name(
            s: *mut IslSet,
            t: c_int,
            pos: c_uint,
            name: *const c_char,
        ) -> *mut IslSet;
        fn isl_union_map_domain_map(u: *mut IslUnionMap) -> *mut IslUnionMap;
        fn isl_union_map_range_map(u: *mut IslUnionMap) -> *mut IslUnionMap;
        fn isl_union_map_zip(u: *mut IslUnionMap) -> *mut IslUnionMap;
    }

    /// isl's `enum isl_dim_type` for the kinds `insert_dims` takes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum IslDim {
        /// `isl_dim_param`
        Param,
        /// `isl_dim_in`
        In,
        /// `isl_dim_out` (`isl_dim_set` for a set)
        Out,
    }

    impl IslDim {
        fn code(self) -> c_int {
            match self {
                IslDim::Param => 1,
                IslDim::In => 2,
                IslDim::Out => 3,
            }
        }
    }

    impl Ctx {
        /// Parses a single-space map (`isl_map`); `None` when isl rejects it.
        pub fn read_map(&self, text: &str) -> Option<IMap<'_>> {
            let c = CString::new(text).ok()?;
            // SAFETY: valid context and NUL-terminated string.
            let p = unsafe { isl_map_read_from_str(self.0, c.as_ptr()) };
            (!p.is_null()).then_some(IMap(p, self))
        }

        /// Parses a single-space set (`isl_set`); `None` when isl rejects it.
        pub fn read_set(&self, text: &str) -> Option<ISet<'_>> {
            let c = CString::new(text).ok()?;
            // SAFETY: valid context and NUL-terminated string.
            let p = unsafe { isl_set_read_from_str(self.0, c.as_ptr()) };
            (!p.is_null()).then_some(ISet(p, self))
        }
    }

    /// An isl map of one space (`isl_map`).
    pub struct IMap<'a>(*mut IslMap, &'a Ctx);

    impl<'a> IMap<'a> {
        /// A new reference to the object, for a call that takes its argument.
        fn copy(&self) -> *mut IslMap {
            // SAFETY: self.0 is a valid object.
            unsafe { isl_map_copy(self.0) }
        }

        /// Owns a result of isl in this context; `None` for null (isl failed).
        fn wrap(&self, p: *mut IslMap) -> Option<Self> {
            (!p.is_null()).then_some(IMap(p, self.1))
        }

        /// Same space and same pairs (`isl_map_is_equal`); `None` when isl fails.
        pub fn is_equal(&self, other: &IMap) -> Option<bool> {
            // SAFETY: valid objects, not consumed.
            boolean(unsafe { isl_map_is_equal(self.0, other.0) })
        }

        /// `{ [A -> B] -> A }` (`isl_map_domain_map`).
        pub fn domain_map(&self) -> Option<Self> {
            // SAFETY: the call takes the copy.
            self.wrap(unsafe { isl_map_domain_map(self.copy()) })
        }

        /// `{ [A -> B] -> B }` (`isl_map_range_map`).
        pub fn range_map(&self) -> Option<Self> {
            // SAFETY: the call takes the copy.
            self.wrap(unsafe { isl_map_range_map(self.copy()) })
        }

        /// Whether domain and range are wrapped pairs (`isl_map_can_zip`).
        pub fn can_zip(&self) -> Option<bool> {
            // SAFETY: valid object, not consumed.
            boolean(unsafe { isl_map_can_zip(self.0) })
        }

        /// `[A -> B] -> [C -> D]` to `[A -> C] -> [B -> D]` (`isl_map_zip`);
        /// `None` when isl fails (a map that cannot zip).
        pub fn zip(&self) -> Option<Self> {
            // SAFETY: the call takes the copy.
            self.wrap(unsafe { isl_map_zip(self.copy()) })
        }

        /// `isl_map_insert_dims`; `None` when isl fails.
        pub fn insert_dims(&self, kind: IslDim, pos: usize, n: usize) -> Option<Self> {
            let (pos, n) = (c_uint::try_from(pos).ok()?, c_uint::try_from(n).ok()?);
            // SAFETY: the call takes the copy.
            self.wrap(unsafe { isl_map_insert_dims(self.copy(), kind.code(), pos, n) })
        }

        /// `isl_map_set_dim_name`; `None` when isl fails.
        pub fn set_dim_name(&self, kind: IslDim, pos: usize, name: &str) -> Option<Self> {
            let pos = c_uint::try_from(pos).ok()?;
            let c = CString::new(name).ok()?;
            // SAFETY: the call takes the copy; isl copies the name.
            self.wrap(unsafe { isl_map_set_dim_name(self.copy(), kind.code(), pos, c.as_ptr()) })
        }

        /// isl's printing of the object.
        pub fn to_text(&self) -> String {
            // SAFETY: valid object, not consumed.
            take_string(unsafe { isl_map_to_str(self.0) })
        }
    }

    impl Drop for IMap<'_> {
        /// Frees the isl object.
        fn drop(&mut self) {
            // SAFETY: owned object.
            unsafe { isl_map_free(self.0) };
        }
    }

    /// An isl set of one space (`isl_set`).
    pub struct ISet<'a>(*mut IslSet, &'a Ctx);

    impl<'a> ISet<'a> {
        /// Owns a result of isl in this context; `None` for null (isl failed).
        fn wrap(&self, p: *mut IslSet) -> Option<Self> {
            (!p.is_null()).then_some(ISet(p, self.1))
        }

        /// Same space and same points (`isl_set_is_equal`); `None` when isl fails.
        pub fn is_equal(&self, other: &ISet) -> Option<bool> {
            // SAFETY: valid objects, not consumed.
            boolean(unsafe { isl_set_is_equal(self.0, other.0) })
        }

        /// `isl_set_insert_dims`; `None` when isl fails.
        pub fn insert_dims(&self, kind: IslDim, pos: usize, n: usize) -> Option<Self> {
            let (pos, n) = (c_uint::try_from(pos).ok()?, c_uint::try_from(n).ok()?);
            // SAFETY: the call takes a new reference.
            self.wrap(unsafe { isl_set_insert_dims(isl_set_copy(self.0), kind.code(), pos, n) })
        }

        /// `isl_set_set_dim_name`; `None` when isl fails.
        pub fn set_dim_name(&self, kind: IslDim, pos: usize, name: &str) -> Option<Self> {
            let pos = c_uint::try_from(pos).ok()?;
            let c = CString::new(name).ok()?;
            // SAFETY: the call takes a new reference; isl copies the name.
            self.wrap(unsafe {
                isl_set_set_dim_name(isl_set_copy(self.0), kind.code(), pos, c.as_ptr())
            })
        }

        /// isl's printing of the object.
        pub fn to_text(&self) -> String {
            // SAFETY: valid object, not consumed.
            take_string(unsafe { isl_set_to_str(self.0) })
        }
    }

    impl Drop for ISet<'_> {
        /// Frees the isl object.
        fn drop(&mut self) {
            // SAFETY: owned object.
            unsafe { isl_set_free(self.0) };
        }
    }

    impl<'a> UMap<'a> {
        /// `{ [A -> B] -> A }` of every member (`isl_union_map_domain_map`).
        pub fn domain_map(&self) -> Option<Self> {
            // SAFETY: the call takes the copy.
            self.wrap(unsafe { isl_union_map_domain_map(self.copy()) })
        }

        /// `{ [A -> B] -> B }` of every member (`isl_union_map_range_map`).
        pub fn range_map(&self) -> Option<Self> {
            // SAFETY: the call takes the copy.
            self.wrap(unsafe { isl_union_map_range_map(self.copy()) })
        }

        /// The members that can zip, zipped (`isl_union_map_zip`).
        pub fn zip(&self) -> Option<Self> {
            // SAFETY: the call takes the copy.
            self.wrap(unsafe { isl_union_map_zip(self.copy()) })
        }
    }

    // ----- gist and simplification of single-space sets and maps (used by
    // tests/isl_gist_tables.rs) -----
    mod gist {
        use super::super::{IslSet, boolean};
        use super::{IMap, ISet, IslMap};
        use std::ffi::c_int;

        #[repr(C)]
        struct IslBasicSet {
            _p: [u8; 0],
        }
        #[repr(C)]
        struct IslBasicSetList {
            _p: [u8; 0],
        }

        unsafe extern "C" {
            fn isl_set_copy(s: *mut IslSet) -> *mut IslSet;
            fn isl_set_gist(s: *mut IslSet, c: *mut IslSet) -> *mut IslSet;
            fn isl_set_intersect(a: *mut IslSet, b: *mut IslSet) -> *mut IslSet;
            fn isl_set_is_empty(s: *mut IslSet) -> c_int;
            fn isl_set_is_disjoint(a: *mut IslSet, b: *mut IslSet) -> c_int;
            fn isl_set_coalesce(s: *mut IslSet) -> *mut IslSet;
            fn isl_set_detect_equalities(s: *mut IslSet) -> *mut IslSet;
            fn isl_set_get_basic_set_list(s: *mut IslSet) -> *mut IslBasicSetList;
            fn isl_basic_set_list_n_basic_set(l: *mut IslBasicSetList) -> c_int;
            fn isl_basic_set_list_get_basic_set(
                l: *mut IslBasicSetList,
                i: c_int,
            ) -> *mut IslBasicSet;
            fn isl_basic_set_list_free(l: *mut IslBasicSetList) -> *mut IslBasicSetList;
            fn isl_basic_set_n_constraint(b: *mut IslBasicSet) -> c_int;
            fn isl_basic_set_dim(b: *mut IslBasicSet, t: c_int) -> c_int;
            fn isl_basic_set_free(b: *mut IslBasicSet) -> *mut IslBasicSet;
            fn isl_map_copy(m: *mut IslMap) -> *mut IslMap;
            fn isl_map_gist(m: *mut IslMap, c: *mut IslMap) -> *mut IslMap;
            fn isl_map_intersect(a: *mut IslMap, b: *mut IslMap) -> *mut IslMap;
            fn isl_map_n_basic_map(m: *mut IslMap) -> c_int;
        }

        /// isl's `isl_dim_div`.
        const ISL_DIM_DIV: c_int = 4;

        impl<'a> ISet<'a> {
            /// `isl_set_gist`: the set simplified in `context`.
            pub fn gist(&self, context: &ISet) -> Option<Self> {
                // SAFETY: the call takes two new references.
                self.wrap(unsafe { isl_set_gist(isl_set_copy(self.0), isl_set_copy(context.0)) })
            }

            /// `isl_set_intersect`.
            pub fn intersect(&self, other: &ISet) -> Option<Self> {
                // SAFETY: the call takes two new references.
                self.wrap(unsafe { isl_set_intersect(isl_set_copy(self.0), isl_set_copy(other.0)) })
            }

            /// `isl_set_is_empty`; `None` when isl fails.
            pub fn is_empty(&self) -> Option<bool> {
                // SAFETY: valid object, not consumed.
                boolean(unsafe { isl_set_is_empty(self.0) })
            }

            /// `isl_set_is_disjoint`; `None` when isl fails.
            pub fn is_disjoint(&self, other: &ISet) -> Option<bool> {
                // SAFETY: valid objects, not consumed.
                boolean(unsafe { isl_set_is_disjoint(self.0, other.0) })
            }

            /// isl's simplification of a set: `isl_set_detect_equalities`,
            /// then `isl_set_coalesce` (which also removes redundant
            /// constraints and the divisions it can).
            pub fn simplify(&self) -> Option<Self> {
                // SAFETY: each call takes the result of the one before.
                self.wrap(unsafe {
                    isl_set_coalesce(isl_set_detect_equalities(isl_set_copy(self.0)))
                })
            }

            /// For every disjunct: its number of constraints and of local
            /// variables (`isl_dim_div`); `None` when isl fails.
            pub fn shape(&self) -> Option<Vec<(usize, usize)>> {
                // SAFETY: the list is a new object, freed here; each basic set
                // taken from it is freed after its counts are read.
                unsafe {
                    let l = isl_set_get_basic_set_list(self.0);
                    if l.is_null() {
                        return None;
                    }
                    let n = isl_basic_set_list_n_basic_set(l);
                    let mut out = Vec::new();
                    for i in 0..n.max(0) {
                        let b = isl_basic_set_list_get_basic_set(l, i);
                        if b.is_null() {
                            isl_basic_set_list_free(l);
                            return None;
                        }
                        let (c, d) = (
                            isl_basic_set_n_constraint(b),
                            isl_basic_set_dim(b, ISL_DIM_DIV),
                        );
                        isl_basic_set_free(b);
                        out.push((usize::try_from(c).ok()?, usize::try_from(d).ok()?));
                    }
                    isl_basic_set_list_free(l);
                    (n >= 0).then_some(out)
                }
            }
        }

        impl<'a> IMap<'a> {
            /// `isl_map_gist`: the map simplified in `context`.
            pub fn gist(&self, context: &IMap) -> Option<Self> {
                // SAFETY: the call takes two new references.
                self.wrap(unsafe { isl_map_gist(isl_map_copy(self.0), isl_map_copy(context.0)) })
            }

            /// `isl_map_intersect`.
            pub fn intersect(&self, other: &IMap) -> Option<Self> {
                // SAFETY: the call takes two new references.
                self.wrap(unsafe { isl_map_intersect(isl_map_copy(self.0), isl_map_copy(other.0)) })
            }

            /// The number of disjuncts (`isl_map_n_basic_map`).
            pub fn n_basic(&self) -> usize {
                // SAFETY: valid object, not consumed.
                usize::try_from(unsafe { isl_map_n_basic_map(self.0) }).unwrap_or(0)
            }
        }
    }

    // ----- parametric lexicographic optima of single-space sets and maps
    // (used by tests/lexmin_isl.rs) -----
    mod lexopt {
        use super::super::IslSet;
        use super::{IMap, ISet, IslMap};

        unsafe extern "C" {
            fn isl_map_copy(m: *mut IslMap) -> *mut IslMap;
            fn isl_map_lexmin(m: *mut IslMap) -> *mut IslMap;
            fn isl_map_lexmax(m: *mut IslMap) -> *mut IslMap;
            fn isl_set_copy(s: *mut IslSet) -> *mut IslSet;
            fn isl_set_lexmin(s: *mut IslSet) -> *mut IslSet;
            fn isl_set_lexmax(s: *mut IslSet) -> *mut IslSet;
        }

        impl IMap<'_> {
            /// `isl_map_lexmin` (`maximize = false`) or `isl_map_lexmax`;
            /// `None` when isl fails.
            pub fn lexopt(&self, maximize: bool) -> Option<Self> {
                // SAFETY: the call takes the new reference.
                self.wrap(unsafe {
                    if maximize {
                        isl_map_lexmax(isl_map_copy(self.0))
                    } else {
                        isl_map_lexmin(isl_map_copy(self.0))
                    }
                })
            }
        }

        impl ISet<'_> {
            /// `isl_set_lexmin` (`maximize = false`) or `isl_set_lexmax`;
            /// `None` when isl fails.
            pub fn lexopt(&self, maximize: bool) -> Option<Self> {
                // SAFETY: the call takes the new reference.
                self.wrap(unsafe {
                    if maximize {
                        isl_set_lexmax(isl_set_copy(self.0))
                    } else {
                        isl_set_lexmin(isl_set_copy(self.0))
                    }
                })
            }
        }
    }

    // ----- the optimum of one dimension as a piecewise affine function of the
    // parameters, and the graph of a piecewise affine function (used by
    // tests/isl_lexmin_tables.rs) -----
    mod dimopt {
        use super::super::{IslPwAff, IslSet, PwAff};
        use super::{Ctx, IMap, ISet, IslMap};
        use std::ffi::c_int;

        unsafe extern "C" {
            fn isl_set_copy(s: *mut IslSet) -> *mut IslSet;
            fn isl_set_dim_max(s: *mut IslSet, pos: c_int) -> *mut IslPwAff;
            fn isl_set_dim_min(s: *mut IslSet, pos: c_int) -> *mut IslPwAff;
            fn isl_pw_aff_copy(p: *mut IslPwAff) -> *mut IslPwAff;
            fn isl_map_from_pw_aff(p: *mut IslPwAff) -> *mut IslMap;
            fn isl_set_from_pw_aff(p: *mut IslPwAff) -> *mut IslSet;
        }

        impl<'a> ISet<'a> {
            /// `isl_set_dim_max` (`maximize`) or `isl_set_dim_min` of set
            /// dimension `pos`; `None` when isl fails.
            pub fn dim_opt(&self, pos: usize, maximize: bool) -> Option<PwAff<'a>> {
                let pos = c_int::try_from(pos).ok()?;
                // SAFETY: the call takes the new reference.
                let p = unsafe {
                    if maximize {
                        isl_set_dim_max(isl_set_copy(self.0), pos)
                    } else {
                        isl_set_dim_min(isl_set_copy(self.0), pos)
                    }
                };
                (!p.is_null()).then_some(PwAff(p, std::marker::PhantomData))
            }
        }

        impl<'a> PwAff<'a> {
            /// The graph of the function (`isl_map_from_pw_aff`), in the
            /// context `ctx` the function belongs to; `None` when isl fails.
            pub fn graph(&self, ctx: &'a Ctx) -> Option<IMap<'a>> {
                // SAFETY: the call takes the new reference.
                let p = unsafe { isl_map_from_pw_aff(isl_pw_aff_copy(self.0)) };
                (!p.is_null()).then_some(IMap(p, ctx))
            }

            /// The graph of a function of the parameters only, as a set
            /// (`isl_set_from_pw_aff`), in the context `ctx` the function
            /// belongs to; `None` when isl fails.
            pub fn graph_set(&self, ctx: &'a Ctx) -> Option<ISet<'a>> {
                // SAFETY: the call takes the new reference.
                let p = unsafe { isl_set_from_pw_aff(isl_pw_aff_copy(self.0)) };
                (!p.is_null()).then_some(ISet(p, ctx))
            }
        }
    }
}

// ----- disjunct counts (used by tests/isl_coalesce_tables.rs). Declared in a
// module of their own, as above. -----

mod counting {
    use super::{IslSet, IslUnionSet, USet};
    use std::ffi::c_int;

    unsafe extern "C" {
        fn isl_set_from_union_set(u: *mut IslUnionSet) -> *mut IslSet;
        fn isl_set_n_basic_set(s: *mut IslSet) -> c_int;
        fn isl_set_free(s: *mut IslSet) -> *mut IslSet;
    }

    impl USet<'_> {
        /// The number of disjuncts (basic sets) of a union set with all its
        /// members in one space (0 when it is empty); `None` when isl fails
        /// (members in several spaces, most likely).
        pub fn n_basic_sets(&self) -> Option<usize> {
            if self.is_empty()? {
                return Some(0);
            }
            // SAFETY: the conversion takes the copy; the set is freed after
            // the count.
            unsafe {
                let s = isl_set_from_union_set(self.copy());
                if s.is_null() {
                    return None;
                }
                let n = isl_set_n_basic_set(s);
                isl_set_free(s);
                usize::try_from(n).ok()
            }
        }
    }
}

// ----- piecewise quasi-affine functions (used by tests/aff_isl.rs) -----
#[repr(C)]
struct IslPwMultiAff {
    _p: [u8; 0],
}
#[repr(C)]
struct IslPwAff {
    _p: [u8; 0],
}

unsafe extern "C" {
    fn isl_pw_multi_aff_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslPwMultiAff;
    fn isl_pw_multi_aff_to_str(p: *mut IslPwMultiAff) -> *mut c_char;
    fn isl_pw_multi_aff_is_equal(a: *mut IslPwMultiAff, b: *mut IslPwMultiAff) -> c_int;
    fn isl_pw_multi_aff_free(p: *mut IslPwMultiAff) -> *mut IslPwMultiAff;
    fn isl_pw_aff_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslPwAff;
    fn isl_pw_aff_to_str(p: *mut IslPwAff) -> *mut c_char;
    fn isl_pw_aff_is_equal(a: *mut IslPwAff, b: *mut IslPwAff) -> c_int;
    fn isl_pw_aff_free(p: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_copy(p: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_multi_aff_copy(p: *mut IslPwMultiAff) -> *mut IslPwMultiAff;
    fn isl_pw_aff_add(a: *mut IslPwAff, b: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_sub(a: *mut IslPwAff, b: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_min(a: *mut IslPwAff, b: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_max(a: *mut IslPwAff, b: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_union_add(a: *mut IslPwAff, b: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_neg(a: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_floor(a: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_coalesce(a: *mut IslPwAff) -> *mut IslPwAff;
    fn isl_pw_aff_pullback_pw_multi_aff(a: *mut IslPwAff, b: *mut IslPwMultiAff) -> *mut IslPwAff;
    fn isl_map_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslMap;
    fn isl_pw_multi_aff_from_map(m: *mut IslMap) -> *mut IslPwMultiAff;
}

#[repr(C)]
struct IslMap {
    _p: [u8; 0],
}

/// The binary operations on pw_aff that the tests compare.
#[derive(Clone, Copy, Debug)]
pub enum PwAffOp {
    /// `isl_pw_aff_add`
    Add,
    /// `isl_pw_aff_sub`
    Sub,
    /// `isl_pw_aff_min`
    Min,
    /// `isl_pw_aff_max`
    Max,
    /// `isl_pw_aff_union_add`
    UnionAdd,
}

impl Ctx {
    /// Parses a piecewise multi-affine function; `None` when isl rejects the text.
    pub fn pw_multi_aff(&self, text: &str) -> Option<PwMultiAff<'_>> {
        let c = CString::new(text).ok()?;
        // SAFETY: valid context and NUL-terminated string.
        let p = unsafe { isl_pw_multi_aff_read_from_str(self.0, c.as_ptr()) };
        (!p.is_null()).then_some(PwMultiAff(p, std::marker::PhantomData))
    }

    /// isl's `isl_pw_multi_aff_from_map` of a map given as text; `None` when
    /// isl rejects the text or fails.
    pub fn pw_multi_aff_from_map(&self, text: &str) -> Option<PwMultiAff<'_>> {
        let c = CString::new(text).ok()?;
        // SAFETY: valid context and NUL-terminated string; the map is consumed.
        let p = unsafe {
            let m = isl_map_read_from_str(self.0, c.as_ptr());
            if m.is_null() {
                return None;
            }
            isl_pw_multi_aff_from_map(m)
        };
        (!p.is_null()).then_some(PwMultiAff(p, std::marker::PhantomData))
    }

    /// Parses a piecewise affine expression; `None` when isl rejects the text.
    pub fn pw_aff(&self, text: &str) -> Option<PwAff<'_>> {
        let c = CString::new(text).ok()?;
        // SAFETY: valid context and NUL-terminated string.
        let p = unsafe { isl_pw_aff_read_from_str(self.0, c.as_ptr()) };
        (!p.is_null()).then_some(PwAff(p, std::marker::PhantomData))
    }
}

/// An isl piecewise multi-affine function.
pub struct PwMultiAff<'a>(*mut IslPwMultiAff, std::marker::PhantomData<&'a Ctx>);

impl PwMultiAff<'_> {
    /// Equal functions (same domain, same values); `None` when isl fails.
    pub fn is_equal(&self, other: &PwMultiAff) -> Option<bool> {
        // SAFETY: valid objects, not consumed.
        boolean(unsafe { isl_pw_multi_aff_is_equal(self.0, other.0) })
    }

    /// isl's printing of the object.
    pub fn to_text(&self) -> String {
        // SAFETY: valid object, not consumed.
        take_string(unsafe { isl_pw_multi_aff_to_str(self.0) })
    }
}

impl Drop for PwMultiAff<'_> {
    /// Frees the isl object.
    fn drop(&mut self) {
        // SAFETY: owned object.
        unsafe { isl_pw_multi_aff_free(self.0) };
    }
}

/// An isl piecewise affine expression.
pub struct PwAff<'a>(*mut IslPwAff, std::marker::PhantomData<&'a Ctx>);

impl<'a> PwAff<'a> {
    /// Owns a result of isl; `None` for null (isl failed).
    fn wrap(p: *mut IslPwAff) -> Option<PwAff<'a>> {
        (!p.is_null()).then_some(PwAff(p, std::marker::PhantomData))
    }

    /// The result of a binary operation; `None` when isl fails.
    pub fn binary(&self, op: PwAffOp, other: &PwAff) -> Option<PwAff<'a>> {
        // SAFETY: valid objects; the copies are consumed by the call.
        unsafe {
            let (a, b) = (isl_pw_aff_copy(self.0), isl_pw_aff_copy(other.0));
            Self::wrap(match op {
                PwAffOp::Add => isl_pw_aff_add(a, b),
                PwAffOp::Sub => isl_pw_aff_sub(a, b),
                PwAffOp::Min => isl_pw_aff_min(a, b),
                PwAffOp::Max => isl_pw_aff_max(a, b),
                PwAffOp::UnionAdd => isl_pw_aff_union_add(a, b),
            })
        }
    }

    /// `-self`, `floor(self)` or `self` coalesced; `None` when isl fails.
    pub fn unary(&self, which: &str) -> Option<PwAff<'a>> {
        // SAFETY: valid object; the copy is consumed by the call.
        unsafe {
            let a = isl_pw_aff_copy(self.0);
            Self::wrap(match which {
                "neg" => isl_pw_aff_neg(a),
                "floor" => isl_pw_aff_floor(a),
                _ => isl_pw_aff_coalesce(a),
            })
        }
    }

    /// `self ∘ g`; `None` when isl fails.
    pub fn pullback(&self, g: &PwMultiAff) -> Option<PwAff<'a>> {
        // SAFETY: valid objects; the copies are consumed by the call.
        unsafe {
            Self::wrap(isl_pw_aff_pullback_pw_multi_aff(
                isl_pw_aff_copy(self.0),
                isl_pw_multi_aff_copy(g.0),
            ))
        }
    }

    /// Equal expressions (same domain, same values); `None` when isl fails.
    pub fn is_equal(&self, other: &PwAff) -> Option<bool> {
        // SAFETY: valid objects, not consumed.
        boolean(unsafe { isl_pw_aff_is_equal(self.0, other.0) })
    }

    /// isl's printing of the object.
    pub fn to_text(&self) -> String {
        // SAFETY: valid object, not consumed.
        take_string(unsafe { isl_pw_aff_to_str(self.0) })
    }
}

impl Drop for PwAff<'_> {
    /// Frees the isl object.
    fn drop(&mut self) {
        // SAFETY: owned object.
        unsafe { isl_pw_aff_free(self.0) };
    }
}
