//! The mutation API keeps use lists, op lists and erasure consistent.

use tcc_ir::builtin::{create_func, create_return, func_entry};
use tcc_ir::*;

fn op(m: &mut Module, name: &str, operands: &[Value], n_results: usize) -> Op {
    let mut st = OperationState::new(opdef::unregistered(name), Location::unknown());
    st.operands = operands.to_vec();
    st.result_types = vec![Type::Scalar(ScalarType::F32); n_results];
    m.create_op(st)
}

#[test]
fn uses_follow_replacement_and_erasure() {
    let mut m = Module::new(Location::unknown());
    let f32t = Type::Scalar(ScalarType::F32);
    let (_, entry) = create_func(&mut m, "main", vec![f32t.clone()], vec![f32t.clone()], Location::unknown());
    let arg = m.block_args(entry)[0];
    let a = op(&mut m, "t.a", &[arg, arg], 1);
    m.append_op(entry, a);
    let av = m.result(a, 0);
    let b = op(&mut m, "t.b", &[av], 1);
    m.append_op(entry, b);
    let bv = m.result(b, 0);
    let ret = create_return(&mut m, entry, &[bv], Location::unknown());
    assert_eq!(m.uses(arg).len(), 2);
    assert_eq!(m.uses(av), &[Use { op: b, index: 0 }]);

    // Insert c before b, then make b use c instead of a.
    let c = op(&mut m, "t.c", &[arg], 1);
    m.insert_op_before(b, c);
    let cv = m.result(c, 0);
    m.replace_all_uses(av, cv);
    assert!(m.uses(av).is_empty());
    assert_eq!(m.operand(b, 0), cv);
    assert_eq!(m.block_ops(entry).collect::<Vec<_>>(), vec![a, c, b, ret]);

    m.erase_op(a);
    assert!(m.is_erased(a));
    assert_eq!(m.uses(arg).len(), 1, "a's two uses of the argument are gone");
    assert_eq!(m.block_ops(entry).collect::<Vec<_>>(), vec![c, b, ret]);

    // replace_op rewires users and erases.
    m.replace_op(b, &[cv]);
    assert_eq!(m.operand(ret, 0), cv);
    assert_eq!(m.block_ops(entry).collect::<Vec<_>>(), vec![c, ret]);
    assert_eq!(m.first_op(entry), Some(c));
    assert_eq!(m.last_op(entry), Some(ret));
    verify(&m).unwrap();

    m.set_operand(ret, 0, arg);
    assert!(m.uses(cv).is_empty());
    m.erase_op(c);
    assert_eq!(m.block_ops(entry).collect::<Vec<_>>(), vec![ret]);
    assert_eq!(func_entry(&m, m.func("main").unwrap()), Some(entry));
}

#[test]
#[should_panic(expected = "still used")]
fn erasing_a_used_op_is_a_bug() {
    let mut m = Module::new(Location::unknown());
    let (_, entry) = create_func(&mut m, "main", vec![], vec![], Location::unknown());
    let a = op(&mut m, "t.a", &[], 1);
    m.append_op(entry, a);
    let av = m.result(a, 0);
    let b = op(&mut m, "t.b", &[av], 0);
    m.append_op(entry, b);
    m.erase_op(a);
}

#[test]
fn verifier_rejects_use_before_def_and_isolation_breaks() {
    let mut m = Module::new(Location::unknown());
    let (_, entry) = create_func(&mut m, "f", vec![], vec![], Location::unknown());
    let a = op(&mut m, "t.a", &[], 1);
    let av = m.result(a, 0);
    let b = op(&mut m, "t.b", &[av], 0);
    m.append_op(entry, b);
    m.append_op(entry, a); // defined after its use
    create_return(&mut m, entry, &[], Location::unknown());
    let e = verify(&m).unwrap_err();
    assert!(e.to_string().contains("before it is defined"), "{e}");

    // A value from one function used in another crosses an isolated op.
    let (_, entry2) = create_func(&mut m, "g", vec![], vec![], Location::unknown());
    let c = op(&mut m, "t.c", &[av], 0);
    m.append_op(entry2, c);
    create_return(&mut m, entry2, &[], Location::unknown());
    let e = verify(&m).unwrap_err();
    assert!(e.to_string().contains("outside its isolated region"), "{e}");
}
