//! A minimal hand-written binding to the system isl, for differential testing only.
//! Each object is owned by a Rust value that frees it; isl's `__isl_take`
//! arguments get copies, so every wrapper method borrows `self`.

use std::ffi::{c_char, c_int, CStr, CString};

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

extern "C" {
    fn isl_ctx_alloc() -> *mut IslCtx;
    fn isl_ctx_free(ctx: *mut IslCtx);
    fn isl_options_set_on_error(ctx: *mut IslCtx, val: c_int) -> c_int;
    fn isl_ctx_set_max_operations(ctx: *mut IslCtx, max: std::ffi::c_ulong);
    fn isl_ctx_reset_operations(ctx: *mut IslCtx);
    fn isl_ctx_reset_error(ctx: *mut IslCtx);
    fn isl_union_set_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslUnionSet;
    fn isl_union_set_copy(s: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_free(s: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_to_str(s: *mut IslUnionSet) -> *mut c_char;
    fn isl_union_set_is_empty(s: *mut IslUnionSet) -> c_int;
    fn isl_union_set_is_subset(a: *mut IslUnionSet, b: *mut IslUnionSet) -> c_int;
    fn isl_union_set_is_equal(a: *mut IslUnionSet, b: *mut IslUnionSet) -> c_int;
    fn isl_union_set_subtract(a: *mut IslUnionSet, b: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_coalesce(a: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_set_lexmin(a: *mut IslUnionSet) -> *mut IslUnionSet;
    fn isl_union_map_read_from_str(ctx: *mut IslCtx, s: *const c_char) -> *mut IslUnionMap;
    fn isl_union_map_free(s: *mut IslUnionMap) -> *mut IslUnionMap;
    fn isl_union_map_is_empty(s: *mut IslUnionMap) -> c_int;
    fn free(p: *mut std::ffi::c_void);
}

const ISL_ON_ERROR_CONTINUE: c_int = 1;

/// isl operations one call may take by default (see [`Ctx::new`]).
pub const DEFAULT_MAX_OPERATIONS: u64 = 250_000;

/// An isl context.
pub struct Ctx(*mut IslCtx);

impl Ctx {
    /// A new context that reports errors by returning null (no abort). Every call
    /// gets a quota of isl operations ([`DEFAULT_MAX_OPERATIONS`], or the
    /// `ISL_MAX_OPS` environment variable; 0 for none): some of our results are
    /// unions of many pieces with divisions, which isl can take minutes to compare,
    /// and a call over its quota fails (the comparison is then skipped).
    pub fn new() -> Ctx {
        // SAFETY: plain constructor of the C library.
        let ctx = unsafe { isl_ctx_alloc() };
        assert!(!ctx.is_null(), "isl_ctx_alloc failed");
        let max = std::env::var("ISL_MAX_OPS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_MAX_OPERATIONS);
        // SAFETY: ctx is valid.
        unsafe {
            isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
            isl_ctx_set_max_operations(ctx, max as std::ffi::c_ulong);
        }
        Ctx(ctx)
    }

    /// A fresh operation quota (and no pending error) for the next call.
    fn fresh(&self) {
        // SAFETY: valid context.
        unsafe {
            isl_ctx_reset_operations(self.0);
            isl_ctx_reset_error(self.0);
        }
    }

    /// Parses a union set; `None` when isl rejects the text.
    pub fn union_set(&self, text: &str) -> Option<USet<'_>> {
        let c = CString::new(text).ok()?;
        self.fresh();
        // SAFETY: valid context and NUL-terminated string.
        let p = unsafe { isl_union_set_read_from_str(self.0, c.as_ptr()) };
        (!p.is_null()).then_some(USet(p, self))
    }

    /// Emptiness of a union map given as text; `None` when isl rejects it.
    pub fn union_map_is_empty(&self, text: &str) -> Option<bool> {
        let c = CString::new(text).ok()?;
        self.fresh();
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
    fn default() -> Self {
        Ctx::new()
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: every object of the context borrows it, so none outlives it.
        unsafe { isl_ctx_free(self.0) }
    }
}

fn boolean(r: c_int) -> Option<bool> {
    match r {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// An isl union set.
pub struct USet<'a>(*mut IslUnionSet, &'a Ctx);

impl USet<'_> {
    fn copy(&self) -> *mut IslUnionSet {
        // SAFETY: self.0 is a valid object.
        unsafe { isl_union_set_copy(self.0) }
    }

    fn wrap(&self, p: *mut IslUnionSet) -> Option<Self> {
        (!p.is_null()).then_some(USet(p, self.1))
    }

    pub fn is_empty(&self) -> Option<bool> {
        self.1.fresh();
        // SAFETY: valid object, not consumed.
        boolean(unsafe { isl_union_set_is_empty(self.0) })
    }

    pub fn is_subset(&self, other: &USet) -> Option<bool> {
        self.1.fresh();
        // SAFETY: valid objects, not consumed.
        boolean(unsafe { isl_union_set_is_subset(self.0, other.0) })
    }

    pub fn is_equal(&self, other: &USet) -> Option<bool> {
        self.1.fresh();
        // SAFETY: valid objects, not consumed.
        boolean(unsafe { isl_union_set_is_equal(self.0, other.0) })
    }

    pub fn subtract(&self, other: &USet) -> Option<Self> {
        self.1.fresh();
        // SAFETY: the call takes the two copies.
        self.wrap(unsafe { isl_union_set_subtract(self.copy(), other.copy()) })
    }

    pub fn coalesce(&self) -> Option<Self> {
        self.1.fresh();
        // SAFETY: the call takes the copy.
        self.wrap(unsafe { isl_union_set_coalesce(self.copy()) })
    }

    pub fn lexmin(&self) -> Option<Self> {
        self.1.fresh();
        // SAFETY: the call takes the copy.
        self.wrap(unsafe { isl_union_set_lexmin(self.copy()) })
    }

    pub fn to_text(&self) -> String {
        // SAFETY: isl returns a malloc'd NUL-terminated string (or null), freed here.
        unsafe {
            let p = isl_union_set_to_str(self.0);
            if p.is_null() {
                return String::new();
            }
            let s = CStr::from_ptr(p).to_string_lossy().into_owned();
            free(p.cast());
            s
        }
    }
}

impl Drop for USet<'_> {
    fn drop(&mut self) {
        // SAFETY: owned object.
        unsafe { isl_union_set_free(self.0) };
    }
}
