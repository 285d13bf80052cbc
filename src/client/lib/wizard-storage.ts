/**
 * The sessionStorage keys of the application wizard (features/apply/wizard-state.ts), here without
 * React because the /apply page's islands read them to start the wizard at once when there is
 * something to show (decision 042): this tab's application under way, and whether this tab already
 * declined the offer of a saved draft (decision 038).
 */
export const WIZARD_STORAGE_KEY = "apply.wizard.v1";
/** sessionStorage key: this tab chose "Start a new one" and is not asked again. */
export const DRAFT_DISMISSED_KEY = "apply.draftOffer.dismissed";
