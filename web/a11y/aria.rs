//! Slint's accessible roles as ARIA roles: what a browser's screen reader knows.

use i_slint_core::items::AccessibleRole as R;

/// The ARIA role of an element of this role (`text` is mapped for completeness: the layer
/// writes a text as plain content with no role).
pub fn role(role: R) -> &'static str {
    match role {
        R::Button => "button",
        R::Checkbox => "checkbox",
        R::Switch => "switch",
        R::RadioButton => "radio",
        R::RadioGroup => "radiogroup",
        R::Combobox => "combobox",
        R::List => "list",
        R::ListItem => "listitem",
        R::Slider => "slider",
        R::Spinbox => "spinbutton",
        R::Tab => "tab",
        R::TabList => "tablist",
        R::TabPanel => "tabpanel",
        R::Table => "table",
        R::Tree => "tree",
        R::ProgressIndicator => "progressbar",
        R::TextInput => "textbox",
        R::Image => "img",
        R::Groupbox => "group",
        R::Text => "text",
        _ => "group",
    }
}
