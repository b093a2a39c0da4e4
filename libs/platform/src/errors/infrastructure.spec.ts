import { isInfrastructureUnavailable } from './infrastructure';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isInfrastructureUnavailable', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    [
      'both addresses of localhost refusing',
      Object.assign(new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')]), { code: 'ECONNREFUSED' }),
    ],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['a server shutting down', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up', withCode('the database system is starting up', '57P03')],
    ['no connection slot left', withCode('sorry, too many clients already', '53300')],
    ['a connection exception', withCode('connection failure', '08006')],
    [
      'TypeORM wrapping a lost connection',
      Object.assign(new Error('Query failed'), { driverError: new Error('Connection terminated unexpectedly') }),
    ],
    ['a cause further down', new Error('could not load', { cause: withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND') })],
  ])('%s is an outage (503)', (_, error) => {
    expect(isInfrastructureUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a syntax error', withCode('syntax error at or near "SELEC"', '42601')],
    ['a bug', new TypeError('cannot read x of undefined')],
    ['not an error at all', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s is not', (_, error) => {
    expect(isInfrastructureUnavailable(error)).toBe(false);
  });
});
