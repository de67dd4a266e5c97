//! The syntax tree of a SCoP region: the statements the front end accepts and
//! C expressions, each with its place in the source.

/// A place in the source: byte range and the line and column of its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset just after the last character.
    pub end: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
}

impl Pos {
    /// From the start of `self` to the end of `other`.
    pub fn to(self, other: Pos) -> Pos {
        Pos {
            end: other.end.max(self.end),
            ..self
        }
    }
}

/// A C expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it is.
    pub pos: Pos,
}

/// The kinds of C expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer literal (`None` when too large for an `i64`).
    Int(Option<i64>),
    /// A floating, string or character literal.
    OtherLiteral,
    /// A name.
    Ident(String),
    /// `base[index]`.
    Index(Box<Expr>, Box<Expr>),
    /// `callee(args)`.
    Call(Box<Expr>, Vec<Expr>),
    /// `base.field` or `base->field` (the operator is kept).
    Member(Box<Expr>, &'static str, String),
    /// A prefix operator: `-`, `+`, `!`, `~`, `*`, `&`, `++`, `--`, `sizeof`.
    Unary(&'static str, Box<Expr>),
    /// A postfix `++` or `--`.
    Postfix(&'static str, Box<Expr>),
    /// Binary operators of one precedence level, associated to the left:
    /// `Binary(a, [("+", b), ("-", c)])` is `(a + b) - c`. A chain is kept
    /// flat (never empty) so that a long sum such as `a[0] + ... + a[9999]`
    /// is one level of the tree, not ten thousand: the walks over the tree
    /// (and its drop) recurse on real nesting only.
    Binary(Box<Expr>, Vec<(&'static str, Expr)>),
    /// `cond ? a : b`.
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(type) e`, with the type's text.
    Cast(String, Box<Expr>),
    /// An assignment inside an expression (`=`, `+=`, ...).
    Assign(&'static str, Box<Expr>, Box<Expr>),
    /// `sizeof(type)`.
    SizeofType(String),
}

impl Expr {
    /// The operator and operands of a binary expression with one operator
    /// (`a op b`); `None` for a longer chain or another kind.
    pub fn single_binary(&self) -> Option<(&'static str, &Expr, &Expr)> {
        match &self.kind {
            ExprKind::Binary(a, rest) => match rest.as_slice() {
                [(op, b)] => Some((op, a, b)),
                _ => None,
            },
            _ => None,
        }
    }
}

/// A statement of the region.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where it is (for an assignment, the assignment and its `;`).
    pub pos: Pos,
}

/// The statements the front end accepts.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `for (init; cond; step) body` over the iterator `var`, starting at
    /// `init` and moving by `step` (non-zero) each time.
    For {
        /// The iterator's name.
        var: String,
        /// Where the iterator's name first occurs.
        var_pos: Pos,
        /// The initial value.
        init: Expr,
        /// The condition.
        cond: Expr,
        /// The increment, negative for a decreasing loop.
        step: i64,
        /// The body.
        body: Box<Stmt>,
    },
    /// `if (cond) then else els`.
    If {
        /// The condition.
        cond: Expr,
        /// The branch taken when it holds.
        then: Box<Stmt>,
        /// The other branch.
        els: Option<Box<Stmt>>,
    },
    /// `{ ... }`.
    Block(Vec<Stmt>),
    /// `;`.
    Empty,
    /// An assignment `lhs op rhs;` (`op` is `=`, `+=`, `-=`, `*=`, `/=`, ...);
    /// `x++;` is read as `x += 1;`.
    Assign {
        /// The element or scalar written.
        lhs: Expr,
        /// The assignment operator.
        op: &'static str,
        /// The value.
        rhs: Expr,
    },
    /// A scalar declaration `type name = init;` (`init` may be absent).
    Decl {
        /// The type's text.
        ty: String,
        /// The name.
        name: String,
        /// Where the name is.
        name_pos: Pos,
        /// The initial value.
        init: Option<Expr>,
        /// One of several declarators of one declaration (`double a = 1.0,
        /// b;`): its place covers `a = 1.0` only, and the statement's text is
        /// rebuilt as `double a = 1.0;`.
        shares_type: bool,
    },
    /// A declaration of several variables (`int i, j = 0, k;`): one
    /// [`StmtKind::Decl`] per declarator, in order.
    Decls(Vec<Stmt>),
}
