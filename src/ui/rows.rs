//! Keeping a repeater's elements: its model's rows are changed in place, not replaced.

/// Makes the model behind a repeater hold `rows`, changing only the rows that differ.
///
/// Replacing a repeater's whole model makes Slint drop and rebuild every element of it
/// and repaint all of them; after one move only a few cells change, so when `current` is
/// already a `VecModel` its rows are updated in place (and `set` is not called). Anything
/// else (the empty default model) is replaced once through `set`.
pub fn update_rows<T: Clone + PartialEq + 'static>(
    current: slint::ModelRc<T>,
    rows: Vec<T>,
    set: impl FnOnce(slint::ModelRc<T>),
) {
    use slint::Model;
    let Some(model) = current.as_any().downcast_ref::<slint::VecModel<T>>() else {
        set(slint::ModelRc::new(slint::VecModel::from(rows)));
        return;
    };
    let count = rows.len();
    for (i, row) in rows.into_iter().enumerate() {
        match model.row_data(i) {
            Some(old) if old == row => {}
            Some(_) => model.set_row_data(i, row),
            None => model.push(row),
        }
    }
    while model.row_count() > count {
        model.remove(model.row_count() - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::update_rows;
    use slint::{Model, ModelRc, VecModel};
    use std::rc::Rc;

    #[test]
    fn rows_are_updated_in_place_not_replaced() {
        let model = Rc::new(VecModel::from(vec![1, 2, 3]));
        let current = ModelRc::from(model.clone());
        let mut replaced = false;
        update_rows(current.clone(), vec![1, 5, 3, 4], |_| replaced = true);
        assert!(!replaced, "a VecModel is updated where it stands");
        assert_eq!(model.iter().collect::<Vec<_>>(), vec![1, 5, 3, 4]);
        update_rows(current, vec![7], |_| replaced = true);
        assert!(!replaced);
        assert_eq!(model.iter().collect::<Vec<_>>(), vec![7]);
    }

    #[test]
    fn a_model_that_is_not_a_vec_model_is_replaced() {
        let mut set = None;
        update_rows(ModelRc::<i32>::default(), vec![1, 2], |m| set = Some(m));
        let set = set.expect("the empty default model is replaced");
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![1, 2]);
    }
}
