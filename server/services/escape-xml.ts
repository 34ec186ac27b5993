/** Text made safe inside XML or HTML, in elements and quoted attributes alike. */
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
