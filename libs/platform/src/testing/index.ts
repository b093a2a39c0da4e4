// Fakes of the platform's own pieces, for unit tests only (`@app/platform/testing`); the fakes of the
// outside world are in libs/testing, which depends on this library and so cannot be used by its tests.
export * from './fake-broadcast-bus';
