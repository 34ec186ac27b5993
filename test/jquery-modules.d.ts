// The jQuery copies the shim is tested with (package.json: jquery 4.0.0, jquery1 =
// jquery@1.12.4, jquery2 = jquery@2.2.4). No @types/jquery: the tests use them untyped.
declare module 'jquery' {
  const jQuery: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  export default jQuery;
}
declare module 'jquery1' {
  const jQuery: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  export default jQuery;
}
declare module 'jquery2' {
  const jQuery: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  export default jQuery;
}
