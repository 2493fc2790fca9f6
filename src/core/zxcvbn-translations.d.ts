// The English texts alone (the package's index also pulls in its dictionaries, about 1.2 MB).
declare module "@zxcvbn-ts/language-en/dist/translations.mjs" {
  const translations: import("@zxcvbn-ts/core").OptionsType["translations"];
  export default translations;
}
