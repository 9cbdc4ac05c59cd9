/**
 * Copies carry exact figures: a rounded figure on screen (a value, a P&L, a computed price) is
 * marked with its exact one in `data-exact` (components/common.tsx), and a copy of a selection
 * that holds its number whole (the figure alone, or a row around it) writes the exact figure in
 * its place. What is shown stays readable; what is
 * pasted elsewhere loses nothing.
 */

/** A rounded figure in the selection: the text shown and its exact figure. */
export interface ShownFigure {
  shown: string;
  exact: string;
}

const shownNumber = /[+-]?\d[\d,]*(?:\.\d+)?/;

/**
 * The selection's text with each figure's shown number replaced by its exact one, figures taken
 * in the order they appear (document order), so the same rounded text twice is matched in turn.
 */
export function exactCopyText(text: string, figures: readonly ShownFigure[]): string {
  let out = '';
  let rest = text;
  for (const figure of figures) {
    const at = rest.indexOf(figure.shown);
    if (at < 0) continue;
    const replaced = figure.shown.replace(shownNumber, (number) =>
      number.startsWith('+') && !figure.exact.startsWith('-') ? `+${figure.exact}` : figure.exact,
    );
    out += rest.slice(0, at) + replaced;
    rest = rest.slice(at + figure.shown.length);
  }
  return out + rest;
}

/**
 * The part of `element`'s text that `selection` holds, when it holds the element's number whole
 * (a selection of the figure alone starts inside the element, so the element is not "contained":
 * what counts is that no digit of the number is left out); null otherwise.
 */
function selectedFigure(doc: Document, selection: Selection, element: HTMLElement): string | null {
  const number = (element.textContent ?? '').match(shownNumber)?.[0];
  if (!number) return null;
  for (let i = 0; i < selection.rangeCount; i++) {
    const range = selection.getRangeAt(i);
    if (!range.intersectsNode(element)) continue;
    const part = doc.createRange();
    part.selectNodeContents(element);
    if (range.compareBoundaryPoints(Range.START_TO_START, part) > 0) {
      part.setStart(range.startContainer, range.startOffset);
    }
    if (range.compareBoundaryPoints(Range.END_TO_END, part) < 0) {
      part.setEnd(range.endContainer, range.endOffset);
    }
    const text = part.toString();
    if (text.match(shownNumber)?.[0] === number) return text;
  }
  return null;
}

/** Listens for copies on `doc`: a selection holding rounded figures is copied with exact ones. */
export function installExactCopy(doc: Document): void {
  doc.addEventListener('copy', (event) => {
    const selection = doc.getSelection();
    if (!selection || selection.isCollapsed || !event.clipboardData) return;
    const figures: ShownFigure[] = [];
    for (const element of doc.querySelectorAll<HTMLElement>('[data-exact]')) {
      const shown = selectedFigure(doc, selection, element);
      if (shown !== null) figures.push({ shown, exact: element.dataset.exact ?? '' });
    }
    if (figures.length === 0) return;
    event.clipboardData.setData('text/plain', exactCopyText(selection.toString(), figures));
    event.preventDefault();
  });
}
