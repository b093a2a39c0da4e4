import { extractByRules, statesSomething } from './rule-based.extractor';

const read = (message: string) => extractByRules(message).map((m) => [m.text, m.subject, m.isInference, m.isFact]);

describe('the offline extractor', () => {
  it("reads the issue's statements, with subjects that let a correction replace them", () => {
    expect(read('I moved to Lisbon')).toEqual([['Lives in Lisbon', 'home', false, true]]);
    expect(read('Actually I moved to Porto')).toEqual([['Lives in Porto', 'home', false, true]]);
    expect(read('my daughter is called Ana')).toEqual([
      ['Has a daughter named Ana', 'relation:daughter:ana', false, true],
      ['Is a parent', 'inference:parent', true, true],
    ]);
    expect(read("I'm vegetarian")).toEqual([['Is vegetarian', 'diet', false, true]]);
  });

  it('reads the other common statements', () => {
    expect(read('My wife is named Eva')).toEqual([
      ["Wife's name is Eva", 'relation:spouse', false, true],
      ['Is married', 'inference:married', true, true],
    ]);
    expect(read('My partner is called Sam Lee')[0]).toEqual(["Partner's name is Sam Lee", 'relation:partner', false, true]);
    expect(read("I'm vegan")).toEqual([['Is vegan', 'diet', false, true]]);
    expect(read('I work as a nurse')).toEqual([['Works as a nurse', 'occupation', false, true]]);
    expect(read("I'm an architect")).toEqual([['Works as an architect', 'occupation', false, true]]);
    expect(read('My name is Joana')).toEqual([['Name is Joana', 'name', false, true]]);
    expect(read('I like cycling')).toEqual([['Likes cycling', 'preference:cycling', false, false]]);
    expect(read('I love jazz, especially Coltrane')).toEqual([['Loves jazz', 'preference:jazz', false, false]]);
    expect(read('I hate olives')).toEqual([['Hates olives', 'preference:olives', false, false]]);
    expect(read("I'm allergic to peanuts")).toEqual([['Is allergic to peanuts', 'allergy:peanuts', false, true]]);
    expect(read('My birthday is 14 February')).toEqual([['Birthday is 14 February', 'birthday', false, true]]);
  });

  it('handles lower-case messages, places of several words and statements before a question', () => {
    expect(read('i live in são paulo')).toEqual([['Lives in São Paulo', 'home', false, true]]);
    expect(read('We moved to Rio de Janeiro, Brazil!')).toEqual([['Lives in Rio de Janeiro, Brazil', 'home', false, true]]);
    expect(read("I'm lactose intolerant, what could I bake?")).toEqual([['Is lactose intolerant', 'allergy:lactose', false, true]]);
  });

  it('leaves out questions, wishes, negations, idioms and other people', () => {
    for (const message of [
      'Do you like jazz?',
      "I'd like a coffee",
      'I would love to live in Japan',
      "I'm not vegetarian",
      'I no longer live in London',
      'I live in hope',
      'I love it when you answer fast',
      "I'm a bit tired",
      'My friend lives in Paris',
      'If I were a teacher I would teach history',
      'my wife is a doctor',
    ]) {
      expect([message, read(message).filter(([, subject]) => subject !== 'inference:married')]).toEqual([message, []]);
    }
  });

  it('reads a dislike said with a negation', () => {
    expect(read("I don't like horror movies")).toEqual([['Dislikes horror movies', 'preference:horror movies', false, false]]);
    expect(read("I can't stand olives")).toEqual([['Dislikes olives', 'preference:olives', false, false]]);
  });

  it('reads "Rex is my dog" as naming the dog, and nothing in someone else\'s pet or a pronoun', () => {
    expect(read('Rex is my dog.')).toEqual([['Has a dog named Rex', 'pet:dog', false, true]]);
    expect(read('Ana is my daughter')).toEqual([
      ['Has a daughter named Ana', 'relation:daughter:ana', false, true],
      ['Is a parent', 'inference:parent', true, true],
    ]);
    expect(read('This is my dog.')).toEqual([['Has a dog', 'pet:dog', false, true]]);
    expect(read("Max is my friend's dog.")).toEqual([]);
    expect(read("My sister's dog is called Max.")).toEqual([]);
    expect(read('rex is my dog')).toEqual([['Has a dog', 'pet:dog', false, true]]);
  });

  it('tells a message that states something about the user from one that only asks, imagines, reports or denies', () => {
    for (const message of [
      'I have a dog called Rex.',
      'Rex is my dog.',
      'We just moved to Porto. Any good schools there?',
      "I'm vegan - any ideas?",
    ])
      expect([message, statesSomething(message)]).toEqual([message, true]);
    for (const message of [
      'What is the name of my dog?',
      'Is my dog called Max?',
      'If I had a cat I would call her Luna.',
      'Imagine I moved to Tokyo, what would I miss?',
      "My friend's dog is Max.",
      "My sister's dog is called Max.",
      "My dog isn't called Max.",
      "I don't live in Porto.",
    ])
      expect([message, statesSomething(message)]).toEqual([message, false]);
  });
});
