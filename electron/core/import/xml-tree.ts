/**
 * A label file is untrusted input: XML is read by saxes, a streaming parser that runs in linear time,
 * checks well-formedness and expands no entity a document declares (no billion laughs, no external
 * entities). The document becomes a small tree of elements and their text, enough for VOC.
 */
import { SaxesParser } from 'saxes';

export interface XmlElement {
  name: string;
  children: XmlElement[];
  /** The element's own text (CDATA included), entities decoded; children's text not included. */
  text: string;
}

/** The document's root element, or why the text is not well-formed XML. */
export function parseXml(xml: string): XmlElement | { error: string } {
  const parser = new SaxesParser({ position: true });
  const root: XmlElement = { name: '', children: [], text: '' };
  const stack: XmlElement[] = [root];
  let error: string | null = null;
  parser.on('opentag', (tag) => {
    const el: XmlElement = { name: tag.name, children: [], text: '' };
    stack[stack.length - 1]?.children.push(el);
    stack.push(el);
  });
  parser.on('closetag', () => void stack.pop());
  const addText = (text: string) => {
    const top = stack[stack.length - 1];
    if (top && top !== root) top.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  // saxes reports every error and goes on; the first says where the file went wrong, and
  // stopping there spares a file of 25,000 unclosed tags 25,000 more reports.
  parser.on('error', (err) => {
    error ??= err.message;
    throw err;
  });
  try {
    parser.write(xml).close();
  } catch (err) {
    error ??= (err as Error).message;
  }
  const top = root.children[0];
  if (error !== null) return { error };
  return top ?? { error: 'the document has no root element' };
}

/** The direct children of `el` named `name`. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}

/** The trimmed text of the first direct child named `name`; undefined when absent. */
export function childText(el: XmlElement | undefined, name: string): string | undefined {
  return el?.children.find((c) => c.name === name)?.text.trim();
}

/**
 * The first element named `name` below `el`, depth first, never entering a `skip` element.
 * Iterative: a hostile file may nest elements deeper than the call stack goes.
 */
export function findBelow(el: XmlElement, name: string, skip: string): XmlElement | undefined {
  const todo: XmlElement[] = [...el.children].reverse();
  for (let c = todo.pop(); c; c = todo.pop()) {
    if (c.name === skip) continue;
    if (c.name === name) return c;
    for (let i = c.children.length - 1; i >= 0; i--) todo.push(c.children[i] as XmlElement);
  }
  return undefined;
}
