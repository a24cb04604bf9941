import { compile } from "html-to-text";

// Compiled once: html-to-text's own parsing of these options is a measurable part of each call.
const convert = compile({
  // Lines are not wrapped: a wrapped link would put its url on a line of its own, apart from its text.
  wordwrap: false,
  selectors: [
    { selector: "a", options: { hideLinkHrefIfSameAsText: true, linkBrackets: ["[", "]"] } },
    { selector: "img", format: "skip" },
    { selector: "head", format: "skip" },
    { selector: "style", format: "skip" },
    { selector: "h1", options: { uppercase: false } },
    { selector: "h2", options: { uppercase: false } },
    { selector: "h3", options: { uppercase: false } },
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
  ],
});

/**
 * The plain-text part of an e-mail written without one: its rendered html's words, each link as
 * `text [url]` (the tracked link the html carries), and the unsubscribe link at the end when the html
 * does not show it.
 */
export function textFromHtml(html: string, unsubscribeUrl: string | null): string {
  const text = convert(html).trim();
  if (unsubscribeUrl && !text.includes(unsubscribeUrl)) return `${text}\n\nUnsubscribe: ${unsubscribeUrl}`;
  return text;
}
