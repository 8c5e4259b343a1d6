//! The syntax and checks of indexed buffer accesses, shared by every dialect that
//! reads or writes buffers: `%buf[%i, %j] : buffer<..>`, with one `index` operand per
//! dimension after the buffer.

use crate::lexer::TokenKind;
use crate::{
    AttrDefault, AttrDict, AttrKind, AttrSpec, BufferType, Diagnostic, Location, Module, Op, Parser, Printer, Type,
    Value,
};

/// The attributes of indexed loads: `readonly` promises that nothing writes the buffer
/// while the enclosing kernel runs, so a backend may move and merge the load.
pub const LOAD_ATTRS: &[AttrSpec] = &[AttrSpec::optional(
    "readonly",
    AttrKind::Bool,
    AttrDefault::Bool(false),
    "nothing writes the buffer while the kernel runs",
)];

/// The buffer type of operand `buffer_operand`, checking the index operands after it.
pub fn indexed_buffer(m: &Module, op: Op, buffer_operand: usize) -> Result<&BufferType, String> {
    let ty = m.value_type(m.operand(op, buffer_operand));
    let b = ty.as_buffer().ok_or_else(|| format!("operand #{buffer_operand} must be a buffer, got {ty}"))?;
    let indices = &m.operands(op)[buffer_operand + 1..];
    if indices.len() != b.shape().len() {
        return Err(format!("{} indices given for a buffer of rank {}", indices.len(), b.shape().len()));
    }
    if let Some(&v) = indices.iter().find(|&&v| *m.value_type(v) != Type::Scalar(crate::ScalarType::Index)) {
        return Err(format!("indices must have type index, got {}", m.value_type(v)));
    }
    Ok(b)
}

/// Parses `%buf[%i, %j] {attrs} : buffer<..>` (the attributes optional, into `attrs`)
/// and returns the buffer and index uses and type.
pub fn parse_indexed(
    p: &mut Parser<'_>,
    attrs: &mut AttrDict,
) -> Result<(Vec<(Value, String, Location)>, Type), Diagnostic> {
    let mut uses = vec![p.parse_value_use()?];
    p.expect(TokenKind::LSquare, "to start the indices")?;
    if p.kind() != TokenKind::RSquare {
        uses.extend(p.parse_value_uses()?);
    }
    p.expect(TokenKind::RSquare, "to end the indices")?;
    if p.kind() == TokenKind::LBrace {
        p.parse_attr_dict_into(attrs)?;
    }
    p.expect(TokenKind::Colon, "before the buffer type")?;
    let ty = p.parse_type()?;
    Ok((uses, ty))
}

/// Types for `uses` = [buffer, indices..] given the buffer type.
pub fn indexed_types(uses: &[(Value, String, Location)], buffer: &Type) -> Vec<Type> {
    let mut types = vec![buffer.clone()];
    types.extend(std::iter::repeat_n(Type::Scalar(crate::ScalarType::Index), uses.len() - 1));
    types
}

/// Prints `%buf[%i, %j]` and the op's attributes, if any.
pub fn print_indexed(p: &mut Printer<'_>, op: Op, operands: &[Value]) {
    p.print_value(operands[0]);
    p.write("[");
    p.print_values(&operands[1..]);
    p.write("]");
    let attrs = p.module().attrs(op).clone();
    p.print_attr_dict(&attrs, &[]);
}
