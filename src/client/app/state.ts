import type { CatalogueSummaryDto, SchoolOptionsDto } from "../../shared/catalogue";
import type { Language } from "../../shared/i18n/languages";
import type { Resources } from "../../shared/i18n/namespaces";
import type { SiteConfig } from "../lib/site";

/** What the server puts in the page (`<script type="application/json" id="__state">`) for hydration. */
export interface InitialState {
  language: Language;
  resources: Resources;
  site: SiteConfig;
  catalogueSummary?: CatalogueSummaryDto;
  /** The default school's options on /apply (decision 009). */
  schoolOptions?: SchoolOptionsDto;
}

export const STATE_ELEMENT_ID = "__state";
