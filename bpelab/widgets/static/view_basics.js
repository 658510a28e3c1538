// What every view of the course needs, kernel or not: where it is drawn, and a short way to make elements.

/** True on the course's static pages (make html sets globalThis.bpelabStatic): no kernel will answer. */
export function isStatic() {
  return globalThis.bpelabStatic === true;
}

/** An element with attributes (`text` sets its text) and children; a null or undefined child is left out,
 *  so that a view can write `cond ? node : null` in a list of children. Every view draws with this one. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** "1 token", "3 tokens": a count and its noun, in the singular for one (Python: fallback.counted). */
export function counted(n, noun) {
  return `${n} ${n === 1 ? noun : noun + "s"}`;
}

export const KERNEL_WAIT_MS = 3000; // how long typed text waits for Python before the page answers itself
