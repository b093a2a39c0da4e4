import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { isInfrastructureUnavailable } from './infrastructure';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
/** What TypeORM throws when a statement fails: the driver's error inside. */
const statementFailed = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

describe('isInfrastructureUnavailable: by SQLSTATE, socket code and type, never by words', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'both addresses of localhost refusing',
      Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')]), { code: 'ECONNREFUSED' }),
    ],
    ['a connection lost mid-query (the driver never got an answer)', statementFailed(new Error('Connection terminated unexpectedly'))],
    ['a server shutting down (57P01)', statementFailed(withCode('terminating connection due to administrator command', '57P01'))],
    ['a server crashing (57P02)', statementFailed(withCode('terminating connection because of crash of another server process', '57P02'))],
    ['a server starting up (57P03) while connecting', withCode('the database system is starting up', '57P03')],
    ['no connection slot left (53300)', withCode('sorry, too many clients already', '53300')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    [
      'a database refusing connections (55000) while connecting',
      withCode('database "app" is not currently accepting connections', '55000'),
    ],
    ['a transaction whose query runner was released under it', new QueryRunnerAlreadyReleasedError()],
    ['its entity manager used after that', new QueryRunnerProviderAlreadyReleasedError()],
    ['a cause further down', new Error('could not load', { cause: withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND') })],
  ])('%s is an outage (503)', (_, error) => {
    expect(isInfrastructureUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', statementFailed(withCode('duplicate key value violates unique constraint', '23505'))],
    ['a syntax error', statementFailed(withCode('syntax error at or near "SELEC"', '42601'))],
    [
      'a 55000 raised by a statement (currval not yet defined)',
      statementFailed(withCode('currval of sequence "s" is not yet defined', '55000')),
    ],
    ['a bug in the parameters, wrapped by TypeORM', statementFailed(new TypeError('Converting circular structure to JSON'))],
    ['an error that only says the words of one', new Error('Connection terminated unexpectedly')],
    ['a bug', new TypeError('cannot read x of undefined')],
    ['not an error at all', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s is not', (_, error) => {
    expect(isInfrastructureUnavailable(error)).toBe(false);
  });
});
