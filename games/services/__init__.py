"""Write side of the domain: ``<entity>_<action>`` functions, keyword-only and typed,
one transaction each. Views call these; they never write models themselves."""
