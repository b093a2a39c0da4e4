/**
 * The public face of a class (its public members, none of its private ones): what a service sees of
 * a repository it is given, so that a unit test can give a small typed fake instead. The one name
 * for that idea (`PublicOf<ChatRepository>`), or `Pick<ChatRepository, ...>` for the members a class uses.
 */
export type PublicOf<T> = { [K in keyof T]: T[K] };
