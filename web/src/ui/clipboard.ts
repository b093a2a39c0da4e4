/**
 * Copying from message areas (section 2): light-themed, style-stripped HTML plus plain text.
 */
const LIGHT_WRAPPER_STYLE = 'color:#1f2328;background:#ffffff;font-family:system-ui,-apple-system,Segoe UI,sans-serif;line-height:1.5';
const DROP = 'button, input, svg, [data-copy-skip]';

/** Strips classes, styles, event attributes and controls; wraps the result in a light theme. */
export function toLightHtml(fragment: DocumentFragment | HTMLElement): string {
  const container = document.createElement('div');
  container.appendChild(fragment instanceof HTMLElement ? fragment.cloneNode(true) : fragment.cloneNode(true));
  container.querySelectorAll(DROP).forEach((node) => node.remove());
  container.querySelectorAll('*').forEach((node) => {
    for (const attribute of Array.from(node.attributes)) {
      const name = attribute.name.toLowerCase();
      if (
        name === 'class' ||
        name === 'style' ||
        name === 'id' ||
        name.startsWith('on') ||
        name.startsWith('data-') ||
        name.startsWith('aria-') ||
        name === 'tabindex' ||
        name === 'role'
      ) {
        node.removeAttribute(attribute.name);
      }
    }
  });
  return `<div style="${LIGHT_WRAPPER_STYLE}">${container.innerHTML}</div>`;
}

/** The `copy` event handler of message areas. */
export function handleLightCopy(event: ClipboardEvent | React.ClipboardEvent): void {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || selection.rangeCount === 0 || !event.clipboardData) return;
  const fragment = document.createDocumentFragment();
  for (let i = 0; i < selection.rangeCount; i++) fragment.appendChild(selection.getRangeAt(i).cloneContents());
  event.clipboardData.setData('text/html', toLightHtml(fragment));
  event.clipboardData.setData('text/plain', selection.toString());
  event.preventDefault();
}

/** Copies both forms when the browser allows it, plain text otherwise. */
export async function copyRich(text: string, html?: string): Promise<void> {
  if (html && typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    try {
      await navigator.clipboard.write([
        new ClipboardItem({ 'text/html': new Blob([html], { type: 'text/html' }), 'text/plain': new Blob([text], { type: 'text/plain' }) }),
      ]);
      return;
    } catch {
      // fall through to plain text
    }
  }
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}
