import { normalizeText, type Exchange, type ExtractedMemory, type MemoryExtractor } from './memory-extractor';

/**
 * The offline extractor: deterministic rules for the statements people make about themselves most
 * often (where they live, their family, diet, job, name, tastes, allergies, birthday...). It reads
 * only what the user wrote, clause by clause, and leaves out questions, hypotheticals, negations
 * and other people ("my friend lives in Paris" says nothing about the user).
 */
export class RuleBasedExtractor implements MemoryExtractor {
  readonly name = 'rules' as const;
  readonly usesKnownMemories = false;

  async extract(exchange: Exchange): Promise<ExtractedMemory[]> {
    return extractByRules(exchange.userText);
  }
}

// ---- Words ------------------------------------------------------------------------------------------

/** Words that end a name or a place written in lower case ("i moved to porto last year"). */
const STOP_WORDS = new Set(
  (
    'a an the and or but so because since for from to at on in into near with without by of as after before when while ' +
    'last this next now recently ago today yesterday tomorrow year years month months week weeks day days already still ' +
    'too also very really just again back there here is was are were be been am it its my your our their his her who which that'
  ).split(' '),
);

/** Words that cannot start a name ("my wife is A doctor", "my son is Happy" is rare enough). */
const NOT_NAMES = new Set(
  (
    'a an the i my your our very so not no in at on called named also really always still just only now currently years months old happy sick ill great fine good ' +
    'this that these those he she it they who what which there here everyone someone somebody nobody everybody'
  ).split(' '),
);

/** Places that are not places ("I live in hope"). */
const NOT_PLACES = new Set('hope fear peace denial sin harmony luxury poverty comfort style the a an my'.split(' '));

/** Connectors inside a place name ("Rio de Janeiro", "Frankfurt am Main", "Isle of Man"). */
const PLACE_CONNECTORS = new Set('de da do dos das del della di la le los las am im an der upon on sur of en y'.split(' '));

const JOBS = new Set(
  (
    'engineer developer programmer coder teacher nurse doctor physician surgeon lawyer attorney solicitor designer architect ' +
    'accountant chef cook baker student writer author journalist editor scientist researcher manager consultant artist ' +
    'musician photographer pharmacist dentist electrician plumber carpenter farmer pilot firefighter officer professor lecturer ' +
    'analyst economist psychologist therapist translator librarian mechanic paramedic veterinarian vet entrepreneur freelancer ' +
    'marketer salesperson barista waiter waitress driver cashier midwife physiotherapist tutor banker broker trader ' +
    'technician administrator secretary receptionist assistant clerk cleaner gardener builder welder painter actor actress ' +
    'dancer singer composer director producer founder ceo cto cfo programmer scientist biologist chemist physicist ' +
    'mathematician statistician historian philosopher priest pastor soldier sailor judge counselor counsellor coach trainer ' +
    'instructor nanny caregiver carer optician radiologist anaesthetist anesthetist veterinary investor recruiter'
  ).split(' '),
);

/** Jobs said with "I'm a ..." that are not work ("I'm a student" is not "works as a student"). */
const NOT_WORK = new Set(['student', 'pensioner', 'retiree', 'homemaker', 'housewife', 'househusband']);

const ACTIVITIES = new Set(
  (
    'tennis football soccer basketball golf chess guitar piano violin drums cello bass volleyball badminton squash rugby cricket ' +
    'baseball hockey padel poker bridge saxophone flute ukulele trumpet harp clarinet handball table-tennis pickleball'
  ).split(' '),
);
const INSTRUMENTS = new Set('guitar piano violin drums cello bass saxophone flute ukulele trumpet harp clarinet'.split(' '));

/** Family and pets: the word, what is stored, and whether one person can have several. */
const RELATIONS: Record<
  string,
  { label: string; key: string; several: boolean; kind: 'child' | 'grandchild' | 'spouse' | 'partner' | 'other' | 'pet' }
> = {
  daughter: { label: 'daughter', key: 'daughter', several: true, kind: 'child' },
  son: { label: 'son', key: 'son', several: true, kind: 'child' },
  kid: { label: 'child', key: 'child', several: true, kind: 'child' },
  child: { label: 'child', key: 'child', several: true, kind: 'child' },
  baby: { label: 'baby', key: 'child', several: true, kind: 'child' },
  stepdaughter: { label: 'stepdaughter', key: 'stepdaughter', several: true, kind: 'child' },
  stepson: { label: 'stepson', key: 'stepson', several: true, kind: 'child' },
  granddaughter: { label: 'granddaughter', key: 'granddaughter', several: true, kind: 'grandchild' },
  grandson: { label: 'grandson', key: 'grandson', several: true, kind: 'grandchild' },
  brother: { label: 'brother', key: 'brother', several: true, kind: 'other' },
  sister: { label: 'sister', key: 'sister', several: true, kind: 'other' },
  wife: { label: 'Wife', key: 'spouse', several: false, kind: 'spouse' },
  husband: { label: 'Husband', key: 'spouse', several: false, kind: 'spouse' },
  partner: { label: 'Partner', key: 'partner', several: false, kind: 'partner' },
  boyfriend: { label: 'Boyfriend', key: 'partner', several: false, kind: 'partner' },
  girlfriend: { label: 'Girlfriend', key: 'partner', several: false, kind: 'partner' },
  fiance: { label: 'Fiancé', key: 'partner', several: false, kind: 'partner' },
  fiancé: { label: 'Fiancé', key: 'partner', several: false, kind: 'partner' },
  fiancee: { label: 'Fiancée', key: 'partner', several: false, kind: 'partner' },
  fiancée: { label: 'Fiancée', key: 'partner', several: false, kind: 'partner' },
  mother: { label: 'Mother', key: 'mother', several: false, kind: 'other' },
  mom: { label: 'Mother', key: 'mother', several: false, kind: 'other' },
  mum: { label: 'Mother', key: 'mother', several: false, kind: 'other' },
  father: { label: 'Father', key: 'father', several: false, kind: 'other' },
  dad: { label: 'Father', key: 'father', several: false, kind: 'other' },
  dog: { label: 'dog', key: 'dog', several: false, kind: 'pet' },
  cat: { label: 'cat', key: 'cat', several: false, kind: 'pet' },
  puppy: { label: 'dog', key: 'dog', several: false, kind: 'pet' },
  kitten: { label: 'cat', key: 'cat', several: false, kind: 'pet' },
};
const RELATION_WORDS = Object.keys(RELATIONS)
  .sort((a, b) => b.length - a.length)
  .join('|');

const NUMBERS: Record<string, string> = {
  one: 'one',
  two: 'two',
  three: 'three',
  four: 'four',
  five: 'five',
  six: 'six',
  '1': 'one',
  '2': 'two',
  '3': 'three',
  '4': 'four',
  '5': 'five',
  '6': 'six',
};

// ---- Clauses ----------------------------------------------------------------------------------------

/** Words that open a clause without changing what it says ("Actually, I moved to Porto"). */
const FILLERS =
  /^(?:(?:actually|well|oh|ah|so|and|but|also|btw|by the way|fyi|just so you know|anyway|anyways|now|ok|okay|yes|yeah|yep|no|nope|hi|hello|hey|oh and|also,|plus|though|in fact|as it happens|for the record|correction|sorry|update)[\s,:;!-]+)+/i;

/** Clauses that are not statements of fact: questions, wishes, hypotheticals, reported speech. */
const NOT_A_STATEMENT =
  /^(?:if|when|whenever|whether|maybe|perhaps|suppose|supposing|imagine|what if|should|would|could|do|does|did|are|is|can|will|was|were|how|what|why|where|who|which|i wonder|i wish|i hope|i think about|i dream|i might|i may|i could|i would|i'd|i’d|i will|i'll|i’ll|i want|i wanted|i plan|i'm planning|i’m planning|i am planning|i'm thinking|i’m thinking|i am thinking|i used to|i once|one day|someday|my friend|my friends|a friend|my colleague|my boss|my neighbou?r)\b/i;

/** Skips a clause that denies what a rule would read in it ("I'm not vegetarian", "I no longer live in Paris"). */
const NEGATED = /\bnot\b|n't\b|n’t\b|\bnever\b|\bno\s+longer\b|\bnobody\b|\bnone\b/i;

/** Someone else's family or pet ("my sister's dog is called Max", "my friend's cat"): not the user's. */
const SOMEONE_ELSES = new RegExp(String.raw`^(?:my|our)\s+[\p{L}-]+(?:'s|’s)\s+(?:${RELATION_WORDS}|friend|friends)\b`, 'iu');

interface Clause {
  /** As written. */
  text: string;
  /** Lower case, same length (so that a match's indices point into `text`). */
  lower: string;
}

/** Sentences, then clauses joined by "and"/"but"/a comma before a new subject ("I live in Lisbon and my daughter..."). */
export function clausesOf(message: string): Clause[] {
  const sentences = message
    .replace(/\r/g, '')
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const clauses: Clause[] = [];
  for (const written of sentences) {
    // "My birthday is on 12 March, any party ideas?", "I'm vegan - what should I eat?": the statement before the question counts.
    const sentence = written.endsWith('?')
      ? written
          .split(/,\s+|\s+[-–—]\s+|:\s+/)
          .slice(0, -1)
          .join(', ')
          .trim()
      : written;
    if (!sentence) continue;
    const parts = sentence.split(
      /(?:,\s*|\s+)(?:and|but|so|plus|also|while)\s+(?=(?:i|i'm|i’m|i've|i’ve|i am|my|we|we're|we’re|we've|we’ve)\b)|,\s+(?=(?:i|i'm|i’m|i've|i’ve|i am|my|we|we're|we’re)\b)|\s+-\s+|\s*:\s+/i,
    );
    for (const part of parts) {
      // "I live in Liverpool, not Manchester": the contrast after the comma is not a denial of the statement.
      const text = part
        .replace(FILLERS, '')
        .replace(/,\s*(?:not|rather than|instead of)\s+[^,]*$/i, '')
        .replace(/[.!;,]+$/, '')
        .trim();
      if (!text || NOT_A_STATEMENT.test(text) || SOMEONE_ELSES.test(text)) continue;
      const lower = text.toLowerCase();
      clauses.push({ text, lower: lower.length === text.length ? lower : text });
    }
  }
  return clauses;
}

/**
 * Whether a message states anything about the user: a clause that is not a question, a wish, a
 * hypothetical, someone else's fact or a denial. Only such a message may change what the user said
 * (see planMerge): "What is the name of my dog?" or "my friend's dog is Max" never does.
 */
export function statesSomething(message: string): boolean {
  return clausesOf(message).some((clause) => !NEGATED.test(clause.lower));
}

// ---- Proper names and places --------------------------------------------------------------------------

const capitalised = (word: string) => /^\p{Lu}/u.test(word);
const titleCase = (word: string) => word.replace(/(^|[-\s])(\p{Ll})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());

/**
 * The proper noun that opens `span` ("Porto last year" gives "Porto", "Rio de Janeiro" stays whole).
 * In a message written without capitals ("i moved to porto") lower-case words are taken up to a
 * stop word and capitalised.
 */
function properNoun(span: string, lax: boolean, options: { place: boolean; maxWords: number }): string | null {
  const words = span.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < words.length && out.length < options.maxWords; i++) {
    const word = words[i].replace(/[.,;:!?)"]+$/, '');
    const trailingComma = /,$/.test(words[i]);
    const lower = word.toLowerCase();
    if (!word) break;
    if (lax) {
      if (STOP_WORDS.has(lower) || !/^\p{L}/u.test(word)) break;
      out.push(titleCase(lower));
    } else if (capitalised(word)) {
      out.push(word);
    } else if (options.place && out.length && PLACE_CONNECTORS.has(lower) && words[i + 1] && capitalised(words[i + 1])) {
      out.push(word);
    } else {
      break;
    }
    if (trailingComma || word !== words[i].replace(/,$/, '')) break;
  }
  if (!out.length) return null;
  const first = out[0].toLowerCase();
  if (options.place ? NOT_PLACES.has(first) : NOT_NAMES.has(first)) return null;
  return out.join(' ').replace(/[’']s$/, '');
}

/** A place, and the country after a comma when there is one ("Lisbon, Portugal"). */
function placeAt(span: string, lax: boolean): string | null {
  const the = /^the\s+/i.exec(span);
  const rest = the ? span.slice(the[0].length) : span;
  const place = properNoun(rest, lax, { place: true, maxWords: 5 });
  if (!place) return null;
  const after = rest.slice(rest.indexOf(place.split(' ').at(-1)!) + place.split(' ').at(-1)!.length);
  const country = /^,\s*(\S+(?:\s+\S+)?)/.exec(after);
  const tail = country ? properNoun(country[1], lax, { place: true, maxWords: 2 }) : null;
  return `${the && !lax ? 'the ' : ''}${place}${tail ? `, ${tail}` : ''}`;
}

/** A short phrase that ends the clause ("jazz", "hiking in the mountains"): trimmed of fillers, at most `maxWords`. */
function phraseAt(span: string, maxWords = 6): string | null {
  const cleaned = span
    .split(/\s*[,(]\s*|\s+(?:because|since|after|when|especially|but|as|so|though|although|if|unless|now|anymore|any\s+more)\b/i)[0]
    .replace(/(?:\s+(?:a lot|so much|very much|much|too|as well|lately|these days|nowadays|a bunch|anyway|actually|though|really))+$/i, '')
    .replace(/[.!,;:]+$/, '')
    .trim();
  const words = cleaned.split(/\s+/).filter(Boolean);
  if (!words.length || words.length > maxWords) return null;
  return words.join(' ');
}

// ---- The rules ----------------------------------------------------------------------------------------

type Found = Omit<ExtractedMemory, 'isInference' | 'isFact'> & Partial<Pick<ExtractedMemory, 'isInference' | 'isFact'>>;

interface Rule {
  pattern: RegExp;
  build(groups: string[], lax: boolean): Found[] | null;
  /** The rule reads a negation itself ("I don't eat meat"); other rules skip negated clauses. */
  negative?: boolean;
}

const I_AM = String.raw`i(?:'m|’m|\s+am)`;
const I_HAVE = String.raw`i(?:'ve|’ve|\s+have)`;
const ADVERBS = String.raw`(?:(?:just|recently|finally|now|also|actually|already|currently|still|really|absolutely|truly|totally|genuinely|do|kind of|kinda|sort of|definitely)\s+)*`;

const fact = (text: string, subject: string | null): Found => ({ text, subject, isFact: true });
const taste = (text: string, subject: string): Found => ({ text, subject, isFact: false });
const inference = (text: string, subject: string): Found => ({ text, subject, isFact: true, isInference: true });

function relationMemories(word: string, name: string | null): Found[] | null {
  const relation = RELATIONS[word.toLowerCase()];
  if (!relation) return null;
  const found: Found[] = [];
  if (relation.kind === 'pet') {
    found.push(fact(name ? `Has a ${relation.label} named ${name}` : `Has a ${relation.label}`, `pet:${relation.key}`));
    return found;
  }
  if (!name) return null;
  if (relation.several) found.push(fact(`Has a ${relation.label} named ${name}`, `relation:${relation.key}:${name.toLowerCase()}`));
  else found.push(fact(`${relation.label}'s name is ${name}`, `relation:${relation.key}`));
  if (relation.kind === 'child') found.push(inference('Is a parent', 'inference:parent'));
  if (relation.kind === 'grandchild') found.push(inference('Is a grandparent', 'inference:grandparent'));
  if (relation.kind === 'spouse') found.push(inference('Is married', 'inference:married'));
  return found;
}

function tasteMemory(verb: string, object: string): Found[] | null {
  const phrase = phraseAt(object);
  if (!phrase) return null;
  const first = phrase.split(/\s+/)[0].toLowerCase();
  if (
    /^(?:you|it|that|this|them|him|her|me|us|when|how|what|where|why|if|the idea|being|my|your|our|his|their|to think|to know|to say|to ask|about|doing)$/.test(
      first,
    )
  )
    return null;
  if (/^(?:it|that|this|you)\b/i.test(phrase) || /^to (?:think|know|say|ask|believe)\b/i.test(phrase)) return null;
  const texts: Record<string, string> = {
    like: 'Likes',
    love: 'Loves',
    enjoy: 'Enjoys',
    adore: 'Loves',
    prefer: 'Prefers',
    hate: 'Hates',
    detest: 'Hates',
    dislike: 'Dislikes',
    'not like': 'Dislikes',
    'not enjoy': 'Dislikes',
    'not stand': 'Dislikes',
    fan: 'Likes',
  };
  const lead = texts[verb];
  if (!lead) return null;
  return [taste(`${lead} ${phrase}`, `preference:${normalizeText(phrase)}`)];
}

const RULES: Rule[] = [
  // ---- Home, origin ----
  {
    pattern: new RegExp(
      String.raw`\b(?:i|we)(?:'ve|’ve|\s+have)?\s+${ADVERBS}(?:moved|relocated|emigrated)\s+(?:back\s+)?(?:to|into)\s+(?:(?:a|an|the|my|our)\s+(?:\p{L}+\s+){0,3}?(?:in|near|outside|of)\s+)?(.+)$`,
      'du',
    ),
    build: ([place], lax) => {
      const where = placeAt(place, lax);
      return where ? [fact(`Lives in ${where}`, 'home')] : null;
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:i|we)(?:'m|’m|\s+am|'re|’re|\s+are|(?:'ve|’ve|\s+have)\s+been)?\s+${ADVERBS}(?:live|living|reside|residing|based|settled)\s+(?:in|near)\s+(?:(?:a|an|the|my|our)\s+(?:\p{L}+\s+){0,3}?(?:in|near|outside|of)\s+)?(.+)$`,
      'du',
    ),
    build: ([place], lax) => {
      const where = placeAt(place, lax);
      return where ? [fact(`Lives in ${where}`, 'home')] : null;
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:${I_AM}\s+(?:originally\s+)?from|i\s+(?:originally\s+)?come\s+from|i\s+grew\s+up\s+in)\s+(.+)$`,
      'du',
    ),
    build: ([place], lax) => {
      const where = placeAt(place, lax);
      return where ? [fact(`Is from ${where}`, 'origin')] : null;
    },
  },
  {
    pattern: /\bi\s+was\s+born\s+in\s+(\d{4})\b/du,
    build: ([year]) => [fact(`Was born in ${year}`, 'birth_year')],
  },
  {
    pattern: /\bi\s+was\s+born\s+in\s+(?:\d{4}\s+in\s+)?(?!\d)(.+)$/du,
    build: ([place], lax) => {
      const where = placeAt(place, lax);
      return where ? [fact(`Was born in ${where}`, 'birthplace')] : null;
    },
  },
  // ---- Family and pets ----
  {
    pattern: new RegExp(
      String.raw`\b(?:my|our)\s+(?:(?:little|older|younger|eldest|oldest|youngest|baby|new|other|elder|big|twin|lovely|beautiful|2-year-old|\d+-year-old)\s+)?(${RELATION_WORDS})(?:(?:'s|’s)\s+name\s+is|\s+name\s+is|\s+is\s+called|\s+is\s+named|(?:'s|’s)\s+called|(?:'s|’s)\s+named|\s+called|\s+named)\s+(.+)$`,
      'du',
    ),
    build: ([relation, name], lax) => relationMemories(relation, properNoun(name, lax, { place: false, maxWords: 2 })),
  },
  {
    // "My daughter is Ana", "my wife, Eva, ..." (a capitalised name only: "my wife is a doctor" is not a name).
    pattern: new RegExp(String.raw`\b(?:my|our)\s+(${RELATION_WORDS})(?:\s+is|'s|’s|,)\s+(.+)$`, 'du'),
    build: ([relation, name], lax) => (lax ? null : relationMemories(relation, properNoun(name, false, { place: false, maxWords: 2 }))),
  },
  {
    // "Rex is my dog", "Ana is my daughter" (a capitalised name only: "this is my dog" names nobody).
    pattern: new RegExp(
      String.raw`^(\S+(?:\s+\S+)?)\s+is\s+(?:my|our)\s+(?:(?:little|older|younger|eldest|oldest|youngest|baby|new|elder|big|twin)\s+)?(${RELATION_WORDS})(?![\p{L}'’-])`,
      'du',
    ),
    build: ([name, relation], lax) => (lax ? null : relationMemories(relation, properNoun(name, false, { place: false, maxWords: 2 }))),
  },
  {
    // "My daughter Ana is 5", "my husband Tom loves golf".
    pattern: new RegExp(
      String.raw`\b(?:my|our)\s+(${RELATION_WORDS})\s+(\S+(?:\s+\S+)?)\s+(?:is|was|has|loves|likes|goes|starts|started|will|just|and)\b`,
      'du',
    ),
    build: ([relation, name], lax) => (lax ? null : relationMemories(relation, properNoun(name, false, { place: false, maxWords: 2 }))),
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:i|we)(?:'ve|’ve|\s+have)?(?:\s+got|\s+have)?\s+(?:a|an|one)\s+(?:(?:little|older|younger|baby|new|lovely|\d+[- ]year[- ]old|\d+[- ]month[- ]old)\s+)*(${RELATION_WORDS})(?:\s+(?:called|named)\s+|,\s+|\s+)?(.*)$`,
      'du',
    ),
    build: ([relation, rest], lax) => {
      const called = /^(?:called|named)\s+/i.exec(rest);
      // A lower-case word after the relation is a name only when introduced ("a dog called rex").
      const name = rest && (called || !lax) ? properNoun(rest.slice(called?.[0].length ?? 0), lax, { place: false, maxWords: 2 }) : null;
      const found = relationMemories(relation, name) ?? [];
      // "... a son called Jamie and a daughter called Ella".
      const more = new RegExp(String.raw`\band\s+(?:a|an|one)\s+(${RELATION_WORDS})\s+(?:called|named)\s+(\S+(?:\s+\S+)?)`, 'giu');
      for (const [, other, otherName] of rest.matchAll(more))
        found.push(...(relationMemories(other.toLowerCase(), properNoun(otherName, lax, { place: false, maxWords: 2 })) ?? []));
      return found.length ? found : null;
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:(?:i|we)\s+(?:(?:'ve|’ve|\s+have)\s+got\s+|have\s+)|${I_AM}\s+(?:\p{L}+\s+)?with\s+)(one|two|three|four|five|six|[1-6])\s+(kids|children|daughters|sons)\b`,
      'du',
    ),
    build: ([count, what]) => {
      const noun = what === 'kids' ? 'children' : what;
      const n = NUMBERS[count];
      const text = n === 'one' ? `Has one ${noun === 'children' ? 'child' : noun.replace(/s$/, '')}` : `Has ${n} ${noun}`;
      return [fact(text, `family:${noun === 'children' ? 'children' : noun}`), inference('Is a parent', 'inference:parent')];
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b${I_AM}\s+(?:happily\s+|now\s+|recently\s+)?(married|single|divorced|engaged|widowed|separated)\b`,
      'du',
    ),
    build: ([status]) => [fact(`Is ${status}`, 'relationship_status')],
  },
  // ---- Diet, allergies ----
  {
    pattern: new RegExp(
      String.raw`\b(?:${I_AM}|${I_HAVE}\s+been|i\s+(?:eat|cook|went|turned|became))\s+(?:a\s+|an\s+)?(?:strict\s+|now\s+|fully\s+|mostly\s+|full\s+)?(vegetarian|vegan|pescatarian|pescetarian|flexitarian)\b`,
      'du',
    ),
    build: ([diet]) => [fact(`Is ${diet === 'pescetarian' ? 'pescatarian' : diet}`, 'diet')],
  },
  {
    pattern: /\bi\s+(?:don't|don’t|do\s+not|dont|never)\s+eat\s+(meat|fish|pork|beef|dairy|gluten|eggs)\b/du,
    build: ([food]) => [fact(`Does not eat ${food}`, food === 'meat' ? 'diet' : `avoids:${food}`)],
    negative: true,
  },
  {
    pattern: new RegExp(
      String.raw`\b${I_AM}\s+(?:very\s+|severely\s+|highly\s+|a\s+bit\s+|slightly\s+|also\s+|mildly\s+|deathly\s+)?allergic\s+to\s+(.+)$`,
      'du',
    ),
    build: ([what]) => {
      const items = what
        .replace(/[.!]+$/, '')
        .split(/\s*,\s*|\s+and\s+|\s+or\s+/)
        .map((s) => phraseAt(s, 3))
        .filter((s): s is string => !!s && !/^(?:it|that|this|them)$/i.test(s));
      return items.length ? items.map((item) => fact(`Is allergic to ${item}`, `allergy:${normalizeText(item)}`)) : null;
    },
  },
  {
    pattern: /\bi\s+(?:have|'ve\s+got|’ve\s+got)\s+(?:a|an)\s+(?:severe\s+|mild\s+|bad\s+)?(\p{L}+)\s+allergy\b/du,
    build: ([what]) => [fact(`Is allergic to ${what}`, `allergy:${normalizeText(what)}`)],
  },
  {
    pattern: new RegExp(String.raw`\b${I_AM}\s+(?:very\s+|severely\s+|a\s+bit\s+)?(lactose|gluten)[- ]intolerant\b`, 'du'),
    build: ([what]) => [fact(`Is ${what} intolerant`, `allergy:${what}`)],
  },
  {
    pattern: /\bi\s+have\s+(coeliac|celiac)\s+disease\b/du,
    build: () => [fact('Has coeliac disease', 'allergy:gluten')],
  },
  // ---- Work ----
  {
    // "I work as a nurse", "I work for Siemens as an electrician", "I work night shifts as a nurse".
    pattern: new RegExp(
      String.raw`\bi(?:'m|’m|\s+am)?\s+${ADVERBS}(?:started\s+|began\s+)?work(?:ing)?((?:\s+(?!as\b)[\p{L}'’-]+){0,4}?)\s+as\s+(?:a|an)\s+(.+)$`,
      'du',
    ),
    build: ([between, job], lax) => {
      const before = /^\s*(?:at|for)\s+(.+)$/i.exec(between)?.[1];
      const [title, after] = job.split(/\s+(?:at|for)\s+/);
      const phrase = phraseAt(title.split(/\s+(?:in|and|but|since|with)\s+/)[0], 5);
      if (!phrase) return null;
      const found = [fact(`Works as ${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`, 'occupation')];
      const employer = lax ? null : properNoun(before || after || '', false, { place: true, maxWords: 4 });
      if (employer) found.push(fact(`Works at ${employer}`, 'employer'));
      return found;
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b${I_AM}\s+(?:now\s+|currently\s+|also\s+)?(?:a|an)\s+((?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)(?=$|\s+(?:at|for|in|and|but|by|since|with|who|from)\b)`,
      'du',
    ),
    build: ([phrase]) => {
      const words = phrase.split(/\s+/);
      const head = words.at(-1)!.toLowerCase();
      if (!JOBS.has(head) && !NOT_WORK.has(head)) return null;
      if (NOT_WORK.has(head)) return [fact(`Is a ${phrase}`, 'occupation')];
      return [fact(`Works as ${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`, 'occupation')];
    },
  },
  {
    pattern: /\b(?:my|our)\s+(?:favourite|favorite)\s+(\p{L}+(?:\s+\p{L}+)?)\s+is\s+(.+)$/du,
    build: ([what, value]) => {
      const thing = phraseAt(value, 5);
      return thing ? [taste(`Favourite ${what.toLowerCase()} is ${thing}`, `favourite:${normalizeText(what)}`)] : null;
    },
  },
  {
    pattern: /\bi\s+(?:also\s+|currently\s+|now\s+)?teach\s+(.+)$/du,
    build: ([subject]) => {
      const what = phraseAt(subject.split(/\s+(?:at|in|to|for|and|but)\s+/)[0], 3);
      return what && !/^(?:my|your|him|her|them|it|people|myself|me)\b/i.test(what) ? [fact(`Teaches ${what}`, 'occupation')] : null;
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b${I_AM}\s+(?:now\s+)?(retired|unemployed|self-employed|a\s+stay-at-home\s+(?:mom|mum|dad|parent))\b`,
      'du',
    ),
    build: ([status]) => [fact(`Is ${status}`, 'occupation')],
  },
  {
    pattern: /\bi\s+(?:currently\s+|now\s+)?(?:work|am\s+working|'m\s+working|’m\s+working)\s+(?:at|for)\s+(.+)$/du,
    build: ([org], lax) => {
      if (lax) return null;
      const name = properNoun(org, false, { place: true, maxWords: 4 });
      return name ? [fact(`Works at ${name}`, 'employer')] : null;
    },
  },
  // ---- Name, age, birthday ----
  {
    pattern: /\bmy\s+(?:first\s+)?name(?:'s|’s|\s+is)\s+(?:actually\s+|really\s+|now\s+)?(.+)$/du,
    build: ([name], lax) => {
      const who = properNoun(name, lax, { place: false, maxWords: 3 });
      return who ? [fact(`Name is ${who}`, 'name')] : null;
    },
  },
  {
    pattern: new RegExp(String.raw`\b${I_AM}\s+called\s+(.+)$`, 'du'),
    build: ([name], lax) => {
      const who = properNoun(name, lax, { place: false, maxWords: 3 });
      return who ? [fact(`Name is ${who}`, 'name')] : null;
    },
  },
  {
    pattern: /\b(?:please\s+)?call\s+me\s+(.+)$/du,
    build: ([name], lax) => {
      if (lax) return null;
      const who = properNoun(name, false, { place: false, maxWords: 2 });
      return who ? [fact(`Prefers to be called ${who}`, 'preferred_name')] : null;
    },
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:${I_AM}\s+(?:now\s+)?|i\s+just\s+turned\s+|i\s+turned\s+)(\d{1,3})(?:\s+years?\s+old|\s+y/?o)?\s*$`,
      'du',
    ),
    build: ([age]) => (Number(age) >= 5 && Number(age) <= 120 ? [fact(`Is ${age} years old`, 'age')] : null),
  },
  {
    pattern: new RegExp(String.raw`\b${I_AM}\s+(\d{1,3})\s+years?\s+old\b`, 'du'),
    build: ([age]) => (Number(age) >= 5 && Number(age) <= 120 ? [fact(`Is ${age} years old`, 'age')] : null),
  },
  {
    pattern: /\b(?:my\s+birthday\s+is|my\s+birthday's|my\s+birthday’s|i\s+was\s+born\s+on)\s+(?:on\s+)?(.+)$/du,
    build: ([date]) => {
      const when = phraseAt(date, 4);
      return when && /\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/i.test(when) ? [fact(`Birthday is ${when}`, 'birthday')] : null;
    },
  },
  // ---- Languages, activities, tastes ----
  {
    pattern: /\bi\s+(?:also\s+)?speak\s+(?:fluent\s+|some\s+|a\s+little\s+|a\s+bit\s+of\s+)?(.+)$/du,
    build: ([languages], lax) => {
      const names = languages
        .split(/\s*,\s*|\s+and\s+/)
        .map((s) => properNoun(s.replace(/^(?:fluent|some)\s+/i, ''), lax, { place: false, maxWords: 1 }))
        .filter((s): s is string => !!s);
      return names.length ? names.map((language) => fact(`Speaks ${language}`, `language:${language.toLowerCase()}`)) : null;
    },
  },
  {
    pattern: /\bi\s+(?:also\s+|regularly\s+|often\s+)?play\s+(the\s+)?([\p{L}-]+)/du,
    build: ([the, what]) => {
      const activity = what.toLowerCase();
      if (!ACTIVITIES.has(activity)) return null;
      return [taste(`Plays ${INSTRUMENTS.has(activity) || the ? 'the ' : ''}${activity}`, `activity:${activity}`)];
    },
  },
  {
    pattern: new RegExp(String.raw`\bi\s+${ADVERBS}(like|love|enjoy|adore|prefer|hate|detest|dislike)\s+(.+)$`, 'du'),
    build: ([verb, object]) => tasteMemory(verb, object),
  },
  {
    pattern: new RegExp(
      String.raw`\bi\s+${ADVERBS}(?:don't|don’t|do\s+not|dont|can't|can’t|cannot)\s+${ADVERBS}(like|enjoy|stand)\s+(.+)$`,
      'du',
    ),
    build: ([verb, object]) => tasteMemory(`not ${verb}`, object),
    negative: true,
  },
  {
    pattern: new RegExp(
      String.raw`\b${I_AM}\s+(?:a\s+)?(?:big\s+|huge\s+|great\s+|massive\s+)?(?:fan\s+of|into|passionate\s+about|obsessed\s+with|crazy\s+about)\s+(.+)$`,
      'du',
    ),
    build: ([object]) => tasteMemory('fan', object),
  },
];

/** "Hi, I'm Tom": a name, but only as a greeting's introduction ("I'm British" is not a name). */
const INTRODUCTION =
  /^(?:hi|hello|hey|hiya|greetings|good\s+(?:morning|afternoon|evening))(?:\s+there)?[\s,!.]+i(?:'m|’m|\s+am)\s+(\p{Lu}[\p{L}'’-]+)(?=\s*(?:[,.!;]|$|\s+and\b))/iu;
const DEMONYM = /(?:ish|ese|ian|ean|ic|ch)$/i;

/** A pet the user calls theirs anywhere, questions included ("can I bring my dog on the train?"). */
const MY_PET = /\bmy\s+(dog|cat|puppy|kitten)\b/iu;
/** Children or a spouse mentioned as the user's own, questions included ("my son is 12", "my husband is a chef"). */
const MY_CHILD = /\b(?:my|our)\s+(?:\p{L}+\s+)?(?:son|daughter|kids|children|child|baby|sons|daughters|stepson|stepdaughter)\b/iu;
const MY_SPOUSE = /\bmy\s+(?:husband|wife)\b/iu;

/** Every memory the rules read in a message, in order, without repeats. */
export function extractByRules(message: string): ExtractedMemory[] {
  const lax = !/\p{Lu}/u.test(message);
  const found: ExtractedMemory[] = [];
  const seen = new Set<string>();
  const add = (memory: Found) => {
    const text = memory.text.replace(/\s+/g, ' ').trim();
    const key = normalizeText(text);
    if (!text || seen.has(key)) return;
    // One pet memory of a kind per message: the named one ("Has a dog named Rex") comes first.
    const subject = memory.subject;
    if (subject?.startsWith('pet:') && found.some((m) => m.subject === subject)) return;
    seen.add(key);
    found.push({
      text: text[0].toUpperCase() + text.slice(1),
      subject: memory.subject,
      isInference: memory.isInference ?? false,
      isFact: memory.isFact ?? true,
    });
  };
  const intro = INTRODUCTION.exec(message.trim());
  if (intro && !DEMONYM.test(intro[1]) && !NOT_NAMES.has(intro[1].toLowerCase())) add(fact(`Name is ${intro[1]}`, 'name'));
  for (const clause of clausesOf(message)) {
    const negated = NEGATED.test(clause.lower);
    for (const rule of RULES) {
      if (negated && !rule.negative) continue;
      const match = rule.pattern.exec(clause.lower);
      if (!match?.indices) continue;
      const groups = match.indices.slice(1).map((span) => (span ? clause.text.slice(span[0], span[1]) : ''));
      for (const memory of rule.build(groups, lax) ?? []) add(memory);
    }
  }
  if (MY_CHILD.test(message)) add(inference('Is a parent', 'inference:parent'));
  if (MY_SPOUSE.test(message)) add(inference('Is married', 'inference:married'));
  const pet = MY_PET.exec(message);
  for (const memory of (pet && relationMemories(pet[1].toLowerCase(), null)) || []) add(memory);
  return found;
}
