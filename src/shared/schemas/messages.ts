/**
 * Message keys used by the shared zod schemas. Both the browser and the server translate them with
 * the `common` namespace (`validation.*`), so a field error reads the same in the form and in an
 * API answer. Exact English wording: docs/product/admissions.md#personal-step.
 */
export const V = {
  required: "validation.required",
  invalidEmail: "validation.invalidEmail",
  tooLong: "validation.tooLong",
  controlCharacters: "validation.controlCharacters",
  invalidDate: "validation.invalidDate",
  tooYoung: "validation.tooYoung",
  tooOld: "validation.tooOld",
  specifyReferral: "validation.specifyReferral",
  invalidChoice: "validation.invalidChoice",
  selectSchool: "validation.selectSchool",
  selectPackage: "validation.selectPackage",
  selectHousing: "validation.selectHousing",
  enterCode: "validation.enterCode",
  acceptTerms: "validation.acceptTerms",
  waitingListConsent: "validation.waitingListConsent",
  passportRequired: "validation.passportRequired",
  passportPdfOnly: "validation.passportPdfOnly",
  fileTooLarge: "validation.fileTooLarge",
} as const;

export type ValidationKey = (typeof V)[keyof typeof V];
