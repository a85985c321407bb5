// Streaming extraction of a page's readable content with htmlparser2's
// callback parser (no DOM): blocks of text with their kind, the boilerplate
// and main-content containers they sit in, tables, lists, code and links.
import { Parser } from 'htmlparser2';

/** Elements whose content is never readable text. */
const SKIP = new Set([
  'script',
  'style',
  'svg',
  'noscript',
  'template',
  'iframe',
  'canvas',
  'object',
  'embed',
  'button',
  'select',
  'textarea',
  'math',
  'video',
  'audio',
  'map',
]);
const BOILERPLATE_TAGS = new Set(['nav', 'aside', 'dialog', 'menu']);
const BOILERPLATE_WORDS =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|footer|sidebar|share|sharing|social|cookie|cookies|consent|banner|ad|ads|advert|advertisement|promo|related|comments?|breadcrumbs?|newsletter|subscribe|popup|modal|masthead|outbrain|taboola|toc|editsection)(?:$|[\s_-])/i;
const BOILERPLATE_ROLES = /^(?:navigation|banner|contentinfo|complementary|dialog|alertdialog|menu|menubar|search)$/;
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'figure',
  'figcaption',
  'hr',
  'form',
  'fieldset',
  'address',
  'details',
  'summary',
  'body',
  'center',
  'caption',
  'table',
  'tbody',
  'thead',
  'tfoot',
]);
const HEADING = /^h([1-6])$/;
const INLINE = new Set([
  'span',
  'a',
  'i',
  'b',
  'em',
  'strong',
  'small',
  'sup',
  'sub',
  'abbr',
  'cite',
  'code',
  'label',
  'time',
  'font',
  'u',
  's',
  'mark',
  'q',
  'img',
]);

/** A container (boilerplate or main content) blocks can sit in. */
export interface Region {
  readonly id: number;
  readonly parent: Region | null;
  /** Set by tag or role (nav, aside, role=navigation); class/id words are weaker evidence. */
  readonly byTag: boolean;
  text: number;
  linkText: number;
}

export interface Block {
  kind: 'heading' | 'paragraph' | 'item' | 'code' | 'table';
  text: string;
  /** Innermost boilerplate region around the block, if any. */
  boilerplate: Region | null;
  /** Outermost main-content region (article, main) around the block, if any. */
  main: Region | null;
}

export interface Link {
  text: string;
  href: string;
  boilerplate: Region | null;
  main: Region | null;
}

export interface Extraction {
  title: string;
  /** The og:title / twitter:title meta, often the article's own headline. */
  metaTitle: string;
  /** Scheme and host of the page (from <base> or the canonical link), if given. */
  origin: string | null;
  blocks: Block[];
  links: Link[];
  /** Characters of all visible text, boilerplate included. */
  visibleText: number;
  errors: number;
}

interface Table {
  rows: Block[][][];
  header: boolean;
  nested: boolean;
}

interface Open {
  name: string;
  skip: boolean;
  /** Opens a boilerplate or main region: text inside must not leak into the parent's block. */
  ownsRegion: boolean;
  boilerplate: Region | null;
  main: Region | null;
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** 'tag' for chrome by element or role, 'words' for chrome by class/id words, else null. */
function boilerplateEvidence(
  name: string,
  attribs: Record<string, string>,
  insideMain: boolean,
): 'tag' | 'words' | null {
  if (BOILERPLATE_TAGS.has(name)) return 'tag';
  if ((name === 'header' || name === 'footer') && !insideMain) return 'tag';
  if (BOILERPLATE_ROLES.test(attribs.role ?? '')) return 'tag';
  return BOILERPLATE_WORDS.test(`${attribs.class ?? ''} ${attribs.id ?? ''}`) ? 'words' : null;
}

function isMain(name: string, attribs: Record<string, string>): boolean {
  return name === 'article' || name === 'main' || attribs.role === 'main' || attribs.itemprop === 'articleBody';
}

function isHidden(attribs: Record<string, string>): boolean {
  return 'hidden' in attribs || attribs['aria-hidden'] === 'true' || /display\s*:\s*none/i.test(attribs.style ?? '');
}

/**
 * Nesting past which a page is not parsed as HTML (it is compressed as text):
 * htmlparser2 keeps its open elements in an array it shifts and unshifts,
 * so each tag costs time in proportion to the depth, and 2e5 nested <div>
 * took over 30 s. Browsers stop nesting at 512 too (Blink's parser limit).
 */
export const MAX_NESTING_DEPTH = 512;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

/**
 * Whether the markup nests elements deeper than `cap`: one linear pass over
 * the tags (each '<' and '>' looked at once), close tags popping one level,
 * void and self-closed elements not nesting, script and style bodies skipped.
 * An estimate of the parser's depth, good enough to choose the cheaper path.
 */
export function nestsDeeperThan(html: string, cap: number): boolean {
  let depth = 0;
  for (let lt = html.indexOf('<'); lt !== -1; ) {
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) break;
    const closing = html.charCodeAt(lt + 1) === 47; // '/'
    const name = /^[a-zA-Z][^\s/>]*/
      .exec(html.slice(lt + (closing ? 2 : 1), Math.min(gt, lt + 40)))?.[0]
      ?.toLowerCase();
    let next = gt + 1;
    if (name !== undefined) {
      if (closing) depth = Math.max(0, depth - 1);
      else if (!VOID.has(name) && html.charCodeAt(gt - 1) !== 47) {
        if (++depth > cap) return true;
        if (RAW_TEXT.has(name)) {
          const end = html.indexOf(`</${name}`, next);
          if (end === -1) break;
          next = end;
        }
      }
    }
    lt = html.indexOf('<', next);
  }
  return false;
}

export function extract(html: string): Extraction {
  const blocks: Block[] = [];
  const links: Link[] = [];
  const stack: Open[] = [];
  let title = '';
  let metaTitle = '';
  let origin: string | null = null;
  let inTitle = false;
  let buffer = '';
  let visibleText = 0;
  let errors = 0;
  let regions = 0;
  let pre: string | null = null;
  let table: Table | null = null;
  let tableDepth = 0;
  /** Blocks of the open cell of the outermost table: a data cell or a layout region. */
  let cell: Block[] | null = null;
  let link: { href: string; text: string } | null = null;
  const lists: Array<{ ordered: boolean; n: number }> = [];

  // Open <li> and <head> elements, counted so text events need not walk the stack.
  let openItems = 0;
  let openHeads = 0;
  const push = (open: Open): void => {
    if (open.name === 'li') openItems++;
    if (open.name === 'head') openHeads++;
    stack.push(open);
  };
  const top = (): Open | undefined => stack[stack.length - 1];
  const region = (parent: Region | null, byTag: boolean): Region => ({
    id: ++regions,
    parent,
    byTag,
    text: 0,
    linkText: 0,
  });

  const record = (block: Block): void => {
    for (let r = block.boilerplate; r; r = r.parent) r.text += block.text.length;
    for (let r = block.main; r; r = r.parent) r.text += block.text.length;
    blocks.push(block);
  };
  /** A block in its regions; inside a table cell it waits for the table to end. */
  const emit = (kind: Block['kind'], text: string): void => {
    if (text === '') return;
    const where = top();
    const block = { kind, text, boilerplate: where?.boilerplate ?? null, main: where?.main ?? null };
    if (cell !== null) cell.push(block);
    else record(block);
  };
  const flush = (): void => {
    const text = collapse(buffer);
    buffer = '';
    if (text === '') return;
    const list = lists[lists.length - 1];
    const inItem = openItems > 0;
    if (inItem && list) emit('item', `${'  '.repeat(lists.length - 1)}${list.ordered ? `${list.n}.` : '-'} ${text}`);
    else emit('paragraph', text);
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const parent = top();
        const skip = (parent?.skip ?? false) || SKIP.has(name) || isHidden(attribs);
        const insideMain = parent?.main != null;
        const evidence = skip ? null : boilerplateEvidence(name, attribs, insideMain);
        if (evidence && INLINE.has(name)) {
          // Inline chrome (an [edit] link, a share button) sits inside a line of
          // real text: drop its text rather than cut the line around it.
          push({
            name,
            skip: true,
            boilerplate: parent?.boilerplate ?? null,
            main: parent?.main ?? null,
            ownsRegion: false,
          });
          return;
        }
        const boilerplate = evidence
          ? region(parent?.boilerplate ?? null, evidence === 'tag')
          : (parent?.boilerplate ?? null);
        const main = parent?.main ?? (isMain(name, attribs) ? region(null, false) : null);
        const ownsRegion = boilerplate !== (parent?.boilerplate ?? null) || main !== (parent?.main ?? null);
        if (ownsRegion && !skip) flush();
        push({ name, skip, boilerplate, main, ownsRegion });
        if (skip) return;
        if (name === 'title' && !title) inTitle = true;
        const property = attribs.property ?? attribs.name;
        if (name === 'meta' && !metaTitle && (property === 'og:title' || property === 'twitter:title'))
          metaTitle = attribs.content ?? '';
        if ((name === 'base' || (name === 'link' && attribs.rel === 'canonical')) && !origin) {
          origin = /^https?:\/\/[^/\s]+/.exec(attribs.href ?? '')?.[0] ?? null;
        }
        if (name === 'br') buffer += '\n';
        const heading = HEADING.exec(name);
        if (BLOCK.has(name) || heading || name === 'li' || name === 'pre' || name === 'tr') flush();
        if (name === 'ul' || name === 'ol') lists.push({ ordered: name === 'ol', n: 0 });
        if (name === 'li' && lists.length > 0) lists[lists.length - 1]!.n++;
        if (name === 'pre') pre = '';
        if (name === 'table') {
          tableDepth++;
          if (table) table.nested = true;
          else table = { rows: [], header: false, nested: false };
        }
        if (table && tableDepth === 1) {
          if (name === 'tr') table.rows.push([]);
          if (name === 'td' || name === 'th') {
            if (table.rows.length === 0) table.rows.push([]); // a cell without a row
            cell = [];
            if (name === 'th' && table.rows.length <= 1) table.header = true;
          }
        }
        if (name === 'a' && attribs.href) link = { href: attribs.href, text: '' };
      },
      ontext(data) {
        const where = top();
        if (where?.skip) return;
        if (inTitle) {
          title += data;
          return;
        }
        if (openHeads > 0) return;
        visibleText += data.length;
        if (pre !== null) pre += data;
        else buffer += data;
        if (link) {
          link.text += data;
          for (let r = where?.boilerplate; r; r = r.parent) r.linkText += data.length;
        }
      },
      onclosetag(name) {
        const closing = top();
        if (!closing) return;
        if (name === 'title') inTitle = false;
        if (!closing.skip) closeElement(name, closing);
        if (closing.ownsRegion && !closing.skip) flush();
        if (closing.name === 'li') openItems--;
        if (closing.name === 'head') openHeads--;
        stack.pop();
      },
      onerror() {
        errors++;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  function closeElement(name: string, closing: Open): void {
    const heading = HEADING.exec(name);
    if (heading) {
      const text = collapse(buffer);
      buffer = '';
      if (text) emit('heading', `${'#'.repeat(Number(heading[1]))} ${text}`);
      return;
    }
    if (name === 'pre' && pre !== null) {
      const code = pre.replace(/^\n+|\s+$/g, '');
      pre = null;
      if (code) emit('code', `\`\`\`\n${code}\n\`\`\``);
      return;
    }
    if (name === 'a' && link) {
      const text = collapse(link.text);
      if (text) links.push({ text, href: link.href, boilerplate: closing.boilerplate, main: closing.main });
      link = null;
    }
    if (BLOCK.has(name) || name === 'li' || name === 'tr' || name === 'td' || name === 'th') flush();
    if ((name === 'td' || name === 'th') && table && tableDepth === 1 && cell !== null) {
      table.rows[table.rows.length - 1]?.push(cell);
      cell = null;
    }
    if (name === 'ul' || name === 'ol') lists.pop();
    if (name === 'table') {
      tableDepth--;
      if (tableDepth === 0 && table) {
        if (cell !== null) table.rows[table.rows.length - 1]?.push(cell); // a cell left open by bad markup
        cell = null;
        emitTable(table);
        table = null;
      }
    }
  }

  /** Data tables as markdown rows; layout tables (nested, block content, long cells) as their blocks. */
  function emitTable(t: Table): void {
    const rows = t.rows.filter((r) => r.some((c) => c.length > 0));
    if (rows.length === 0) return;
    const layout =
      t.nested ||
      rows.some((r) =>
        r.some((c) => c.length > 1 || (c[0] !== undefined && (c[0].kind !== 'paragraph' || c[0].text.length > 200))),
      );
    if (layout) {
      for (const row of rows) for (const c of row) c.forEach(record);
      return;
    }
    const text = (c: Block[]) => c.map((b) => b.text.replace(/\|/g, '\\|')).join(' ');
    const lines = rows.map((r) => `| ${r.map(text).join(' | ')} |`);
    if (t.header) lines.splice(1, 0, `|${' --- |'.repeat(rows[0]!.length)}`);
    emit('table', lines.join('\n'));
  }

  parser.write(html);
  parser.end();
  flush();
  return { title: collapse(title), metaTitle: collapse(metaTitle), origin, blocks, links, visibleText, errors };
}
